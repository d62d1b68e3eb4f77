import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { once } from "node:events";
import { finished } from "node:stream/promises";
import { exportConfig } from "./config";
import { csvHead, csvLines, type CsvCell } from "./csv";
import { isExportId } from "./ids";
import { ensurePrivateDir } from "@/lib/security/private-files";

// Export files on disk: `<EXPORT_DIR>/<export id>.csv`. A file is written to a temporary name in
// the same folder, flushed to disk (fsync) and renamed over its final name, so a reader sees no
// file or a whole file, never half of one.

export function exportFilePath(id: string): string {
  if (!isExportId(id)) throw new Error("Not an export id.");
  return path.join(exportConfig.dir, `${id}.csv`);
}

const TEMP = /^\.[A-Za-z0-9_-]{22}\.\d+\.[0-9a-f]{8}\.tmp$/;

/**
 * Writes the export's file: the byte order mark and the header, then each batch of rows as CSV
 * lines, with backpressure (the next batch is taken only once the disk has taken the last
 * ones). `onProgress` runs after each batch. Returns the number of rows written.
 */
export async function writeCsvFile(
  id: string,
  batches: AsyncIterable<readonly (readonly CsvCell[])[]>,
  onProgress: (rows: number) => Promise<void>,
  signal?: AbortSignal,
): Promise<number> {
  const final = exportFilePath(id);
  const dir = path.dirname(final);
  ensurePrivateDir(dir); // 0700, tightened when an older version made it 0755
  const temp = path.join(dir, `.${id}.${process.pid}.${crypto.randomBytes(4).toString("hex")}.tmp`);
  let rows = 0;
  // A large buffer: the disk takes a batch while the next one is prepared.
  const out = fs.createWriteStream(temp, { flags: "wx", mode: 0o600, highWaterMark: 1 << 20 });
  let failure: unknown = null; // a stream error between two awaits (a full disk…)
  out.on("error", (error: Error) => (failure ??= error));
  const write = async (data: string) => {
    if (failure) throw failure;
    if (!out.write(data)) await once(out, "drain", { signal });
  };
  try {
    await write(csvHead());
    for await (const batch of batches) {
      signal?.throwIfAborted();
      await write(csvLines(batch));
      rows += batch.length;
      await onProgress(rows);
    }
    out.end();
    await finished(out);
    await fsync(temp);
    await fs.promises.rename(temp, final);
    await fsync(dir).catch(() => {}); // the rename itself; not possible on every platform
    return rows;
  } catch (error) {
    out.destroy();
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
}

async function fsync(file: string) {
  const handle = await fs.promises.open(file, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Removes export files; missing ones are fine (already purged). */
export async function deleteExportFiles(ids: string[]): Promise<void> {
  for (const id of ids) await fs.promises.rm(exportFilePath(id), { force: true });
}

/**
 * Files of the export folder that no export row points at any more (a crash between the
 * rename and the row update, a purge that failed half-way), and temporary files older than
 * `olderThanMs` (a killed writer's).
 */
export async function strayFiles(known: Set<string>, olderThanMs: number): Promise<string[]> {
  const dir = exportConfig.dir;
  const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
  const out: string[] = [];
  for (const name of names) {
    const id = name.endsWith(".csv") ? name.slice(0, -4) : null;
    const stray = id !== null ? isExportId(id) && !known.has(id) : TEMP.test(name);
    if (!stray) continue;
    const file = path.join(dir, name);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (stat && Date.now() - stat.mtimeMs > olderThanMs) out.push(file);
  }
  return out;
}
