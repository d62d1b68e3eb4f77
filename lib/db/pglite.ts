import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

/**
 * A PGlite data folder may be opened by one process at a time. The lock file holds the owner's
 * pid; a lock left by a dead process is taken over, a live owner makes us refuse with a clear
 * message (so `npm run db:seed` does not corrupt the folder of a running server).
 */
export class DatabaseLockedError extends Error {}

function lockPath(dir: string) {
  return `${dir}.lock`;
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function acquireLock(dir: string): () => void {
  const file = lockPath(dir);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: "wx" });
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

/** Opens (creating if needed) a persisted PGlite database; `dir` undefined means in memory. */
export async function openPGlite(dir?: string): Promise<PGlite & { release: () => void }> {
  const release = dir ? acquireLock(dir) : () => {};
  try {
    if (dir) fs.mkdirSync(dir, { recursive: true });
    const db = await PGlite.create(dir ?? "memory://", { extensions: pgliteExtensions });
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
