import fs from "node:fs";
import path from "node:path";

// Data at rest is readable by this account only; folders made by hand are tightened when opened.

/** Group and others bits, which no data folder or file keeps. */
const SHARED_BITS = 0o077;

/** The project's own data folder, the default parent of the database and the exports. */
const dataRoot = (): string => path.resolve(/*turbopackIgnore: true*/ ".data");

/** Creates or tightens `dir` to 0700, and `.data/` too when it lies inside it. */
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
export const privateMode = (mode: number): number => mode & ~SHARED_BITS;
