// The production build the benchmark serves, made from a snapshot of the sources in a folder of
// its own ($TMPDIR/console-bench/app): several engineers share this tree, and a `next build` of
// theirs rewriting .next under a running benchmark (or ours under their e2e run) would break
// both. node_modules is hard-linked (one second, no extra disk) rather than symlinked, which
// Turbopack refuses when the link points outside the project.
//
// Rebuilt only when the sources changed: the same cheap hash as scripts/start.mjs (paths, sizes
// and times of everything that goes into the build).
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { BUILD_INPUTS } from "../build-id.mjs";

/** What goes into the build: the list the build id is made from (scripts/build-id.mjs). */
export { BUILD_INPUTS };

/** bench/framework-floor: where its sources are, what goes into its build, and where it is built. */
export const FRAMEWORK_FLOOR = {
  sources: "bench/framework-floor",
  inputs: ["app", "lib", "next.config.js", "package.json", "serve.mjs", "tsconfig.json"],
  dir: path.join(os.tmpdir(), "console-bench", "framework-floor"),
};

export function sourceHash(root: string, inputs: readonly string[] = BUILD_INPUTS): string {
  const hash = crypto.createHash("sha256");
  const walk = (rel: string) => {
    const p = path.join(root, rel);
    if (!fs.existsSync(p)) return;
    const stat = fs.statSync(p);
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(p).sort()) walk(path.join(rel, entry));
    } else {
      hash.update(`${rel}:${stat.size}:${stat.mtimeMs}\n`);
    }
  };
  for (const p of inputs) walk(p);
  return hash.digest("hex");
}

function lockHash(root: string) {
  const file = path.join(root, "package-lock.json");
  return fs.existsSync(file) ? crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex") : "";
}

export type Build = { dir: string; rebuilt: boolean; seconds: number; hash: string };

/**
 * Makes `dir` a checkout of what goes into the build (a fresh copy of `inputs` from `sources`)
 * beside the tree's node_modules (hard links, redone when the lock file changed), ready for
 * `next build` there. The many-machines test builds its second instance this way too.
 */
export function prepareBuildFolder(
  root: string,
  dir: string,
  options: { sources?: string; inputs?: readonly string[]; log?: (s: string) => void } = {},
) {
  const log = options.log ?? console.log;
  const sources = options.sources ?? root;
  fs.mkdirSync(dir, { recursive: true });

  // node_modules: hard links, redone when the lock file changed.
  const modules = path.join(dir, "node_modules");
  const modulesStamp = path.join(dir, ".bench-lock-hash");
  const lock = lockHash(root);
  if (!fs.existsSync(modules) || !fs.existsSync(modulesStamp) || fs.readFileSync(modulesStamp, "utf8") !== lock) {
    log("› Linking node_modules into the build folder…");
    fs.rmSync(modules, { recursive: true, force: true });
    const r = spawnSync("cp", ["-al", path.join(root, "node_modules"), modules], { stdio: "inherit" });
    if (r.status !== 0) throw new Error("Could not hard-link node_modules (is $TMPDIR on the same file system?).");
    fs.writeFileSync(modulesStamp, lock);
  }

  // Sources: a fresh copy (what was deleted in the tree must not linger here).
  for (const rel of options.inputs ?? BUILD_INPUTS) {
    fs.rmSync(path.join(dir, rel), { recursive: true, force: true });
    const from = path.join(sources, rel);
    if (!fs.existsSync(from)) continue;
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.cpSync(from, path.join(dir, rel), { recursive: true, preserveTimestamps: true });
  }
}

/**
 * Makes sure `dir` holds a production build of the sources of `root` as they are now, and
 * returns it. `force` rebuilds anyway.
 */
export function ensureBuild(
  root: string,
  options: { dir?: string; force?: boolean; log?: (s: string) => void; sources?: string; inputs?: readonly string[] } = {},
): Build {
  const log = options.log ?? console.log;
  const dir = options.dir ?? path.join(os.tmpdir(), "console-bench", "app");
  // The app's sources, or another app's (`sources`, a folder of the tree) built with the tree's node_modules.
  const sources = options.sources ? path.join(root, options.sources) : root;
  const inputs = options.inputs ?? BUILD_INPUTS;
  // The same sources with other packages (a changed lock file) are another build.
  const hash = `${sourceHash(sources, inputs)}:${lockHash(root)}`;
  const stamp = path.join(dir, ".bench-source-hash");
  const built = fs.existsSync(path.join(dir, ".next", "BUILD_ID")) && fs.existsSync(stamp) ? fs.readFileSync(stamp, "utf8") : "";
  if (!options.force && built === hash) {
    log(`› Production build is up to date (${dir}).`);
    return { dir, rebuilt: false, seconds: 0, hash };
  }
  const started = performance.now();
  prepareBuildFolder(root, dir, { sources, inputs, log });
  log("› Building the production build (next build)…");
  fs.rmSync(stamp, { force: true });
  const r = spawnSync(process.execPath, [path.join(dir, "node_modules/next/dist/bin/next"), "build"], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) {
    process.stderr.write(r.stdout ?? "");
    process.stderr.write(r.stderr ?? "");
    throw new Error("next build failed (output above).");
  }
  fs.writeFileSync(stamp, hash);
  const seconds = (performance.now() - started) / 1000;
  log(`› Built in ${seconds.toFixed(0)} s.`);
  return { dir, rebuilt: true, seconds, hash };
}
