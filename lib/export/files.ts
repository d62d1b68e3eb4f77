import { storage } from "@/lib/storage";
import { csvHead, csvLines, type CsvCell } from "./csv";
import { isJobId } from "@/lib/jobs/ids";

// Export files in the console's storage (lib/storage), `exports/<export id>.csv`.

export function exportKey(id: string): string {
  if (!isJobId(id)) throw new Error("Not an export id.");
  return `exports/${id}.csv`;
}

const KEY = /^exports\/([A-Za-z0-9_-]{22})\.csv$/;

/** Writes the export's file batch by batch, with backpressure; returns the rows written. */
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

/** Keys of export files older than `olderThanMs` that no export points at (a crash or half-done purge left them). */
export async function strayFiles(known: Set<string>, olderThanMs: number): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of storage().list("exports/")) {
    const id = KEY.exec(entry.key)?.[1];
    if (id && !known.has(id) && Date.now() - entry.modifiedAt.getTime() > olderThanMs) out.push(entry.key);
  }
  return out;
}
