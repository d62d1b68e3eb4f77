import { storage } from "@/lib/storage";
import { csvHead, csvLines, type CsvCell } from "./csv";
import { isJobId } from "@/lib/jobs/ids";

// Export files in the console's file storage (lib/storage): `exports/<export id>.csv`. The
// storage makes a file visible only when whole, so a reader sees no file or a whole one.

export function exportKey(id: string): string {
  if (!isJobId(id)) throw new Error("Not an export id.");
  return `exports/${id}.csv`;
}

const KEY = /^exports\/([A-Za-z0-9_-]{22})\.csv$/;

/**
 * Writes the export's file: the byte order mark and the header, then each batch of rows as CSV
 * lines, with backpressure (the next batch is taken only once the storage has taken the last
 * ones). `onProgress` runs after each batch. Returns the number of rows written.
 */
export async function writeCsvFile(
  id: string,
  batches: AsyncIterable<readonly (readonly CsvCell[])[]>,
  onProgress: (rows: number) => Promise<void>,
  signal?: AbortSignal,
): Promise<number> {
  let rows = 0;
  async function* lines() {
    yield csvHead();
    for await (const batch of batches) {
      signal?.throwIfAborted();
      yield csvLines(batch);
      rows += batch.length;
      await onProgress(rows);
    }
  }
  await storage().put(exportKey(id), lines(), { contentType: "text/csv; charset=utf-8", signal });
  return rows;
}

/** Removes export files; missing ones are fine (already purged). */
export async function deleteExportFiles(ids: string[]): Promise<void> {
  if (ids.length > 0) await storage().delete(ids.map(exportKey));
}

/**
 * Export files that no export row points at any more (a crash between the write and the row
 * update, a purge that failed half-way), older than `olderThanMs`: their keys.
 */
export async function strayFiles(known: Set<string>, olderThanMs: number): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of storage().list("exports/")) {
    const id = KEY.exec(entry.key)?.[1];
    if (id && !known.has(id) && Date.now() - entry.modifiedAt.getTime() > olderThanMs) out.push(entry.key);
  }
  return out;
}
