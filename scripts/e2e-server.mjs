// The server the end-to-end tests talk to: the production build on a throwaway embedded database.
// With --sso, a test OpenID provider is started here first (tests/helpers/identity-provider.ts,
// with e2e/sso-accounts.ts's people) and the console's single sign-on points at it.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { tsImport } from "tsx/esm/api";

const port = process.argv[2] ?? "3100";
const sso = process.argv.includes("--sso");
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
  // e2e/webhooks.spec.ts's receiver is this machine, over http.
  WEBHOOK_ALLOW_PRIVATE: "1",
  WEBHOOK_ALLOW_HTTP: "1",
  // e2e/pseudo-locale.spec.ts reads every page in the pseudo-language (Accept-Language: en-XA).
  PSEUDO_LOCALE: "on",
};
let provider;
if (sso) {
  const { startIdentityProvider } = await tsImport("../tests/helpers/identity-provider.ts", import.meta.url);
  const { SSO_ACCOUNTS } = await tsImport("../e2e/sso-accounts.ts", import.meta.url);
  provider = await startIdentityProvider({ consoleOrigins: [`http://localhost:${port}`], accounts: SSO_ACCOUNTS });
  Object.assign(env, provider.env);
  console.log(`› Test OpenID provider on ${provider.issuer}`);
}

const prep = spawnSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/prepare-db.ts"], { stdio: "inherit", env });
if (prep.status !== 0) process.exit(prep.status ?? 1);

const server = spawn(process.execPath, ["--import", "tsx/esm", "server.ts"], { stdio: "inherit", env: { ...env, PORT: port } });
const stop = () => {
  server.kill("SIGTERM");
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
server.on("exit", async (code) => {
  await provider?.close();
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
