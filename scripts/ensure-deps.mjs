// Installs what is missing: node_modules from the lock file, and the generated Prisma client.
// Cheap when nothing changed, so `npm start` and `npm test` call it every time.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
const mtime = (p) => (fs.existsSync(p) ? fs.statSync(p).mtimeMs : 0);

/** A package built for one operating system (esbuild's, Next's SWC, sharp's, lightningcss'…). */
const PLATFORM_BINARY = /(?:^|[-/])(?:darwin|linux|linuxmusl|win32|freebsd|openbsd|netbsd|sunos|android|aix)(?:-|$)/;

/**
 * What `npm ci`'s refusal means. A registry mirror that lacks other platforms' optional binaries
 * leaves them out of the lock file, and `npm ci` then lists each as `Missing: name@version from
 * lock file` (some npm versions print every line twice): expected here, said in one line. Any
 * other missing or invalid package is a real drift between package.json and the lock file
 * (someone forgot `npm install`), and npm's own error is shown in full.
 *
 * `stderr` is npm's error output; `lock` the parsed package-lock.json (null if unreadable).
 */
export function describeCiRefusal(stderr, lock) {
  const missing = [...new Set([...stderr.matchAll(/Missing: (@?[^@\s]+)@\S* from lock file/g)].map((m) => m[1]))].sort();
  const invalid = /Invalid: lock file's/.test(stderr);
  const optional = new Set();
  for (const entry of Object.values(lock?.packages ?? {})) for (const name of Object.keys(entry?.optionalDependencies ?? {})) optional.add(name);
  const unexpected = missing.filter((name) => !optional.has(name) && !PLATFORM_BINARY.test(name));
  if (missing.length > 0 && unexpected.length === 0 && !invalid) {
    const what = missing.length === 1 ? "1 optional binary package" : `${missing.length} optional binary packages`;
    return {
      expected: true,
      missing,
      message: `› npm ci refused: the lock file lacks ${what} of other platforms (this registry does not carry them; expected here); installing the same versions with npm install --no-save…`,
    };
  }
  const why = unexpected.length
    ? `package.json and the lock file disagree (${unexpected.join(", ")} ${unexpected.length === 1 ? "is" : "are"} not in the lock file: run npm install and commit package-lock.json)`
    : invalid
      ? "package.json and the lock file disagree (above: run npm install and commit package-lock.json)"
      : "npm ci failed (above)";
  return { expected: false, missing, message: `› ${why}; trying npm install --no-save…` };
}

function readLock() {
  try {
    return JSON.parse(fs.readFileSync("package-lock.json", "utf8"));
  } catch {
    return null;
  }
}

export function ensureDeps() {
  const installed = "node_modules/.package-lock.json";
  if (!fs.existsSync(installed) || mtime("package-lock.json") > mtime(installed)) {
    console.log("› Installing dependencies (npm ci)…");
    const ci = spawnSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { stdio: ["inherit", "inherit", "pipe"], encoding: "utf8" });
    if (ci.status !== 0) {
      // `npm install --no-save` installs the lock file's versions for the rest (describeCiRefusal).
      const refusal = describeCiRefusal(ci.stderr ?? "", readLock());
      if (!refusal.expected) process.stderr.write(ci.stderr ?? "");
      console.log(refusal.message);
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
