import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { prepareBuildFolder } from "../../scripts/bench/build";

// A second production build of the project's sources, made apart as another machine makes it:
// the build inputs (scripts/build-id.mjs BUILD_INPUTS) copied to a folder of their own, and
// `next build` run there. node_modules is hard-linked (a second or two, no extra disk): Turbopack
// refuses a node_modules symlink that points outside the project.

export type SeparateBuild = {
  /** The folder holding the sources and their `.next`; serve it with startNextServer({ appDir }). */
  dir: string;
  /** How long the copy and the build took. */
  seconds: number;
  remove(): void;
};

export async function separateBuild(root: string, env: Record<string, string>): Promise<SeparateBuild> {
  const started = performance.now();
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), "console-second-build-"));
  const dir = path.join(parent, "app");
  const remove = () => fs.rmSync(parent, { recursive: true, force: true });
  try {
    prepareBuildFolder(root, dir, { log: () => {} });
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, [path.join(dir, "node_modules/next/dist/bin/next"), "build"], {
        cwd: dir,
        env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", ...env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (d: Buffer) => (output += d.toString()));
      child.stderr.on("data", (d: Buffer) => (output += d.toString()));
      child.on("error", reject);
      child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`next build in ${dir} failed (${code}):\n${output.slice(-4000)}`))));
    });
  } catch (error) {
    remove();
    throw error;
  }
  return { dir, seconds: (performance.now() - started) / 1000, remove };
}
