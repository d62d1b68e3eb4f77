import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { ensurePrivateDir } from "@/lib/security/private-files";
import { storageProblem } from "./problems";
import { checkKey, StorageUnavailableError, type FileStore, type PutOptions, type StoreBody, type StoredEntry } from "./types";
import { log } from "@/lib/telemetry/log";

// Files in a local folder (STORAGE_DIR): written under a temporary name, fsynced and renamed, so a
// reader sees none or a whole one. Folders 0700, files 0600.

const TEMP = /^\.(.+)\.\d+\.[0-9a-f]{8}\.tmp$/;

export function localStore(root: string): FileStore {
  const file = (key: string) => path.join(root, ...checkKey(key).split("/"));

  return {
    kind: "local",

    async put(key: string, body: StoreBody, options: PutOptions = {}) {
      const final = file(key);
      const dir = path.dirname(final);
      ensurePrivateDir(dir, root);
      const temp = path.join(dir, `.${path.basename(final)}.${process.pid}.${crypto.randomBytes(4).toString("hex")}.tmp`);
      // A large buffer: the disk takes a chunk while the next one is prepared.
      const out = fs.createWriteStream(temp, { flags: "wx", mode: 0o600, highWaterMark: 1 << 20 });
      try {
        const source = body instanceof Readable ? body : Readable.from(body, { objectMode: false });
        await pipeline(source, out, { signal: options.signal });
        await fsync(temp);
        await fs.promises.rename(temp, final);
        await fsync(dir).catch(() => {}); // the rename itself; not possible on every platform
        return out.bytesWritten;
      } catch (error) {
        out.destroy();
        await fs.promises.rm(temp, { force: true });
        throw error;
      }
    },

    async get(key: string) {
      const target = file(key);
      let handle: fs.promises.FileHandle;
      try {
        handle = await fs.promises.open(target, "r");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw unavailable(error); // a mount gone away (EIO, ESTALE), permissions changed under us
      }
      const { size } = await handle.stat();
      return { body: handle.createReadStream(), size };
    },

    async delete(keys: readonly string[]) {
      for (const key of keys) await fs.promises.rm(file(key), { force: true });
    },

    async *list(prefix: string): AsyncIterable<StoredEntry> {
      const folder = prefix.endsWith("/") ? prefix.slice(0, -1) : path.posix.dirname(prefix);
      const dir = folder === "." || folder === "" ? root : file(folder);
      const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
      for (const name of names) {
        if (name.startsWith(".")) continue;
        const key = folder === "." || folder === "" ? name : `${folder}/${name}`;
        if (!key.startsWith(prefix)) continue;
        const stat = await fs.promises.stat(path.join(dir, name)).catch(() => null);
        if (stat?.isFile()) yield { key, size: stat.size, modifiedAt: stat.mtime };
      }
    },

    async sweepIncomplete(olderThanMs: number) {
      let removed = 0;
      const pending = [root];
      while (pending.length > 0) {
        const dir = pending.pop()!;
        const entries = await fs.promises.readdir(dir, { withFileTypes: true }).catch(() => []);
        for (const entry of entries) {
          const full = path.join(dir, entry.name);
          if (entry.isDirectory()) {
            if (dir !== root || STORE_FOLDERS.has(entry.name)) pending.push(full);
          } else if (TEMP.test(entry.name)) {
            const stat = await fs.promises.stat(full).catch(() => null);
            if (stat && Date.now() - stat.mtimeMs > olderThanMs) {
              await fs.promises.rm(full, { force: true });
              removed++;
            }
          }
        }
      }
      return removed;
    },

    async check() {
      try {
        ensurePrivateDir(root, root);
        await fs.promises.access(root, fs.constants.R_OK | fs.constants.W_OK);
      } catch (error) {
        throw new StorageUnavailableError(storageProblem(error), error);
      }
    },
  };
}

/** The store's top folders: the sweep never walks outside them (the default root also holds the database). */
const STORE_FOLDERS = new Set(["exports", "imports"]);

function unavailable(error: unknown): StorageUnavailableError {
  log.warn(`storage unavailable: ${(error as Error).message}`);
  return new StorageUnavailableError(storageProblem(error), error);
}

async function fsync(target: string) {
  const handle = await fs.promises.open(target, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
