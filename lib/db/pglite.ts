import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { NodeFS } from "@electric-sql/pglite/nodefs";
import { BrandedError } from "@/lib/errors";
import { ensurePrivateDir, privateMode, tightenTree } from "@/lib/security/private-files";

/** A PGlite folder is opened by one process at a time (a dead owner's lock is taken over), so a seed cannot corrupt a running server's folder. */
export class DatabaseLockedError extends BrandedError {
  static readonly brand: string = "console.DatabaseLockedError";
}

const lockPath = (dir: string) => `${dir}.lock`;

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function acquireLock(dir: string): () => void {
  const file = lockPath(dir);
  // The lock sits beside the folder, whose parent may be shared (/tmp): only a parent made here is made private.
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: "wx", mode: 0o600 });
      const release = () => {
        try {
          if (fs.readFileSync(file, "utf8") === String(process.pid)) fs.unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
      process.once("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number(fs.readFileSync(file, "utf8"));
      if (owner === process.pid) return () => {};
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) {
        throw new DatabaseLockedError(
          `The embedded database ${dir} is in use by process ${owner} (a running server?). ` +
            `Stop that process first, or set DATABASE_URL to use a PostgreSQL server.`,
        );
      }
      fs.rmSync(file, { force: true }); // stale lock of a dead process
    }
  }
  throw new DatabaseLockedError(`Could not lock the embedded database ${dir}.`);
}

export const pgliteExtensions = { pg_trgm };

type PostgresMod = Parameters<NodeFS["init"]>[1];
type Attr = { mode?: number };
type NodeOps = {
  setattr(node: unknown, attr: Attr): void;
  mknod(parent: unknown, name: string, mode: number, dev: number): unknown;
};
type EmscriptenNodeFs = { node_ops: NodeOps; stream_ops: { setattr(stream: unknown, attr: Attr): void } };

/**
 * PGlite's file system with every file private: Emscripten chmods new files 0666 regardless of
 * umask, so group and other bits are taken off each mode it sets.
 */
class PrivateNodeFS extends NodeFS {
  async init(pg: PGlite, opts: Partial<PostgresMod>) {
    const { emscriptenOpts } = await super.init(pg, opts);
    const makePrivate = (mod: PostgresMod) => {
      const nodefs = mod.NODEFS as unknown as EmscriptenNodeFs;
      const { node_ops, stream_ops } = nodefs;
      const mask = (attr: Attr): Attr => (attr.mode === undefined ? attr : { ...attr, mode: privateMode(attr.mode) });
      const setattr = node_ops.setattr.bind(node_ops);
      const streamSetattr = stream_ops.setattr.bind(stream_ops);
      const mknod = node_ops.mknod.bind(node_ops);
      node_ops.setattr = (node, attr) => setattr(node, mask(attr));
      stream_ops.setattr = (stream, attr) => streamSetattr(stream, mask(attr));
      node_ops.mknod = (parent, name, mode, dev) => mknod(parent, name, privateMode(mode), dev);
    };
    return { emscriptenOpts: { ...emscriptenOpts, preRun: [makePrivate, ...(emscriptenOpts.preRun ?? [])] } };
  }
}

/**
 * Opens (creating if needed) a persisted PGlite database, folder 0700 and files 0600; `dir` undefined: in memory.
 * `loadDataDir`: a new database starts as this dump (`dumpDataDir`) instead of an empty cluster.
 */
export async function openPGlite(dir?: string, { loadDataDir }: { loadDataDir?: Blob } = {}): Promise<PGlite & { release: () => void }> {
  const release = dir ? acquireLock(dir) : () => {};
  try {
    if (dir) {
      ensurePrivateDir(dir);
      tightenTree(dir);
    }
    const db = await PGlite.create({ fs: dir ? new PrivateNodeFS(dir) : undefined, extensions: pgliteExtensions, ...(loadDataDir ? { loadDataDir } : {}) });
    return Object.assign(db, {
      release: () => {
        release();
      },
    });
  } catch (error) {
    release();
    throw error;
  }
}
