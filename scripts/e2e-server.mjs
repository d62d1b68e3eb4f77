// The server the end-to-end tests talk to: the production build on a throwaway embedded database.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const port = process.argv[2] ?? "3100";
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "console-e2e-"));
const env = {
  ...process.env,
  DATABASE_URL: "",
  PGLITE_DIR: path.join(dir, "pglite"),
  STORAGE_DIR: path.join(dir, "files"),
  NEXTAUTH_SECRET: "e2e-secret-not-for-production-0123456789",
  NEXTAUTH_URL: `http://localhost:${port}`,
  NODE_ENV: "production",
  // One JSON line per request would bury the test report; warnings and errors still show.
  LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
};
const prep = spawnSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/prepare-db.ts"], { stdio: "inherit", env });
if (prep.status !== 0) process.exit(prep.status ?? 1);

const server = spawn(process.execPath, ["--import", "tsx/esm", "server.ts"], { stdio: "inherit", env: { ...env, PORT: port } });
const stop = () => {
  server.kill("SIGTERM");
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
server.on("exit", (code) => {
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
