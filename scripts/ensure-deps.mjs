// Installs what is missing: node_modules from the lock file, and the generated Prisma client.
// Cheap when nothing changed, so `npm start` and `npm test` call it every time.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
const mtime = (p) => (fs.existsSync(p) ? fs.statSync(p).mtimeMs : 0);

export function ensureDeps() {
  const installed = "node_modules/.package-lock.json";
  if (!fs.existsSync(installed) || mtime("package-lock.json") > mtime(installed)) {
    console.log("› Installing dependencies (npm ci)…");
    const ci = spawnSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { stdio: ["inherit", "inherit", "pipe"], encoding: "utf8" });
    if (ci.status !== 0) {
      // A registry mirror that lacks other platforms' optional binaries leaves them out of the
      // lock file, and `npm ci` then refuses; `npm install --no-save` installs the lock file's
      // versions for the rest. That refusal is expected and said in one line; anything else is shown.
      const missing = (ci.stderr.match(/Missing: .* from lock file/g) ?? []).length;
      if (missing) {
        console.log(`› npm ci refused: this registry lacks ${missing} optional binaries of other platforms named in the lock file (expected here); installing the same versions with npm install --no-save…`);
      } else {
        process.stderr.write(ci.stderr);
        console.log("› npm ci failed (above); trying npm install --no-save…");
      }
      run("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--loglevel=error"]);
    }
  }
  const client = "lib/generated/prisma/client.ts";
  if (!fs.existsSync(client) || mtime("prisma/schema.prisma") > mtime(client)) {
    console.log("› Generating the Prisma client…");
    run(process.execPath, ["scripts/prisma-generate.mjs"]);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) ensureDeps();
