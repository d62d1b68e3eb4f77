// `npm start`: install what is missing, prepare the database (migrate; demo data on the embedded
// database), build when the sources changed, then serve on PORT (default 3000).
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ensureDeps } from "./ensure-deps.mjs";

const run = (cmd, args, env = process.env) => {
  const r = spawnSync(cmd, args, { stdio: "inherit", env });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

ensureDeps();

const port = process.env.PORT || "3000";
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", PORT: port, NEXTAUTH_URL: process.env.NEXTAUTH_URL || `http://localhost:${port}` };
if (!env.NEXTAUTH_SECRET) {
  if (env.DATABASE_URL) {
    console.error("NEXTAUTH_SECRET is not set. With DATABASE_URL (a real deployment) set it yourself: see docs/deployment.md.");
    process.exit(1);
  }
  // The embedded demo keeps a random secret of its own next to its data.
  const file = ".data/nextauth-secret";
  // `.data/` holds the database, the exports and this secret: this account's only (0700).
  fs.mkdirSync(".data", { recursive: true, mode: 0o700 });
  fs.chmodSync(".data", 0o700);
  if (!fs.existsSync(file)) fs.writeFileSync(file, crypto.randomBytes(32).toString("base64url"), { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  env.NEXTAUTH_SECRET = fs.readFileSync(file, "utf8").trim();
}

run(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/prepare-db.ts"], env);

if (sourceHash() !== readBuiltHash()) {
  console.log("› Building (sources changed since the last build)…");
  run("npx", ["next", "build"], { ...env, NODE_ENV: "production" });
  fs.writeFileSync(".next/source-hash", sourceHash());
}

console.log(`› Serving on http://localhost:${port}`);
const server = spawn(process.execPath, ["--import", "tsx/esm", "server.ts"], { stdio: "inherit", env: { ...env, NODE_ENV: "production" } });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));

function readBuiltHash() {
  return fs.existsSync(".next/BUILD_ID") && fs.existsSync(".next/source-hash") ? fs.readFileSync(".next/source-hash", "utf8") : "";
}

/** A hash of everything that goes into the build: cheap (paths, sizes and times), enough to notice edits. */
function sourceHash() {
  const hash = crypto.createHash("sha256");
  const walk = (p) => {
    if (!fs.existsSync(p)) return;
    const stat = fs.statSync(p);
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(p).sort()) walk(path.join(p, entry));
    } else {
      hash.update(`${p}:${stat.size}:${stat.mtimeMs}\n`);
    }
  };
  for (const p of ["app", "components", "lib", "public", "instrumentation.ts", "proxy.ts", "server.ts", "next.config.js", "scripts/build-id.mjs", "postcss.config.mjs", "package-lock.json", "prisma/schema.prisma"]) walk(p);
  return hash.digest("hex");
}
