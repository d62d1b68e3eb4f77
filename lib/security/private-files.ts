import fs from "node:fs";
import path from "node:path";

// Data at rest is readable by this account only: the project's data folder `.data/`, the
// embedded database's folder and the export folder are 0700, the files in them 0600. Folders
// that exist already (made by an older version, or by hand) are tightened when they are opened.

/** Group and others bits, which no data folder or file keeps. */
const SHARED_BITS = 0o077;

/** The project's own data folder, the default parent of the database and the exports. */
function dataRoot(): string {
  return path.resolve(/*turbopackIgnore: true*/ ".data");
}

/**
 * Creates `dir` (with any missing parents) readable by this account only, or tightens it to 0700
 * when it exists; when it lies inside `.data/` (`root`), that folder is tightened too.
 */
export function ensurePrivateDir(dir: string, root = dataRoot()): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const inRoot = dir === root || dir.startsWith(`${root}${path.sep}`);
  for (const folder of inRoot ? [root, dir] : [dir]) fs.chmodSync(folder, 0o700);
}

/** Takes group and others bits off every folder and file under `dir` (symbolic links are left as they are). */
export function tightenTree(dir: string): void {
  const pending = [dir];
  while (pending.length > 0) {
    const current = pending.pop()!;
    const stat = fs.lstatSync(current);
    if (stat.isSymbolicLink()) continue;
    if (stat.mode & SHARED_BITS) fs.chmodSync(current, stat.mode & 0o7700);
    if (stat.isDirectory()) for (const name of fs.readdirSync(current)) pending.push(path.join(current, name));
  }
}

/** A mode without group and others bits: what the embedded database's files are created with. */
export function privateMode(mode: number): number {
  return mode & ~SHARED_BITS;
}
