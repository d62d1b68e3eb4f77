import { storage } from "@/lib/storage";
import { csvHead, csvLines, type CsvCell } from "./csv";
import { CONTENT_TYPES, EXPORT_FORMATS, type ExportFormat } from "./format";
import { isJobId } from "@/lib/jobs/ids";
import { xlsxStream } from "./xlsx";

// Export files in the console's storage (lib/storage), `exports/<export id>.csv` or `.xlsx`.

export function exportKey(id: string, format: ExportFormat = "csv"): string {
  if (!isJobId(id)) throw new Error("Not an export id.");
  return `exports/${id}.${format}`;
}

const KEY = /^exports\/([A-Za-z0-9_-]{22})\.(?:csv|xlsx)$/;

type Batches = AsyncIterable<readonly (readonly CsvCell[])[]>;

/** The batches passed on as they are, counted for the progress; stops when aborted. */
async function* counted(batches: Batches, onProgress: (rows: number) => Promise<void>, signal: AbortSignal | undefined, count: { rows: number }) {
  for await (const batch of batches) {
    signal?.throwIfAborted();
    yield batch;
    count.rows += batch.length;
    await onProgress(count.rows);
  }
}

/** Writes the export's file in `format` batch by batch, with backpressure; returns the rows written. */
export async function writeExportFile(
  format: ExportFormat,
  id: string,
  batches: Batches,
  onProgress: (rows: number) => Promise<void>,
  signal?: AbortSignal,
): Promise<number> {
  const count = { rows: 0 };
  const rows = counted(batches, onProgress, signal, count);
  const body = format === "xlsx" ? xlsxStream(rows) : csvStream(rows);
  await storage().put(exportKey(id, format), body, { contentType: CONTENT_TYPES[format], signal });
  return count.rows;
}

async function* csvStream(batches: Batches) {
  yield csvHead();
  for await (const batch of batches) yield csvLines(batch);
}

/** Writes the export's CSV file (see writeExportFile). */
export function writeCsvFile(id: string, batches: Batches, onProgress: (rows: number) => Promise<void>, signal?: AbortSignal): Promise<number> {
  return writeExportFile("csv", id, batches, onProgress, signal);
}

/** Removes export files, whichever their format; missing ones are fine (already purged). */
export async function deleteExportFiles(ids: string[]): Promise<void> {
  if (ids.length > 0) await storage().delete(ids.flatMap((id) => EXPORT_FORMATS.map((format) => exportKey(id, format))));
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
