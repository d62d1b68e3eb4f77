import { branchScopeOfUser, covers } from "@/lib/auth/scope";
import { config } from "@/lib/config";
import { isLocale } from "@/lib/i18n/locales";
import { cutText, problem } from "@/lib/i18n/problem";
import { problemsIn } from "@/lib/i18n/problems-in";
import { ROOT_COLLATION, SORT_COLLATION } from "@/lib/list/collation";
import { deleteExportFiles, writeExportFile } from "./files";
import type { ExportFormat } from "./format";
import { exportSort, storedFilters } from "./filters";
import { countRows, exportRows } from "./rows";
import { connection, sql } from "@/lib/db/sql";
import { jobProgress } from "@/lib/jobs/progress";
import { transaction } from "@/lib/db/transaction";
import { recordEvent } from "@/lib/webhooks/outbox";
import { downloadPath, exportStatus, exportStatusInWords } from "./status";

// One attempt at one export: safe to rerun after a crash (rebuilt under a new temporary name), a no-op once not in_queue.

/** How often the row's processed_rows is updated while writing (not on every row or batch). */
const PROGRESS_EVERY_MS = 1000;

type RunResult = { exportId: string; rows: number } | { exportId: string; skipped: string };

/** The error of an export whose user lost branches while its file was written: a problem key, put into words where it is shown. */
export const SCOPE_CHANGED = problem("export.scopeChanged");

export async function runExport(exportId: string, signal?: AbortSignal): Promise<RunResult> {
  const conn = await connection();
  const [row] = await conn.query<{ status: string; format: ExportFormat; filters: unknown; sort: string | null; user_id: number; locale: string | null }>(
    sql`SELECT e.status::text AS status, e.format::text AS format, e.filters, e.sort, e.user_id, u.locale
      FROM subscriber_exports e LEFT JOIN users u ON u.id = e.user_id WHERE e.id = ${exportId}`);
  if (!row) return { exportId, skipped: "the export no longer exists" };
  if (row.status !== "in_queue") return { exportId, skipped: `the export is ${row.status}` };

  const filters = storedFilters(row.filters);
  // The user's scope as it is when the file is written (docs/decisions/0028-branch-scope.md).
  const scope = await branchScopeOfUser(row.user_id);
  let lastUpdate = Date.now();
  const progress = async (rows: number) => {
    jobProgress({ processed_rows: rows });
    if (Date.now() - lastUpdate < PROGRESS_EVERY_MS) return;
    lastUpdate = Date.now();
    // On PGlite (no snapshot) rows added since the count are exported too.
    await transaction((tx) => tx.query(sql`UPDATE subscriber_exports SET processed_rows = LEAST(${rows}, total_rows) WHERE id = ${exportId}`), { job: true });
  };
  const written: number[] = [];
  // The count and the rows in one snapshot (PostgreSQL), so the file holds exactly `total` rows.
  const rows = await conn.read(async (reader) => {
    const total = await countRows(reader, scope, filters);
    await transaction((tx) => tx.query(
      sql`UPDATE subscriber_exports SET started_at = now(), total_rows = ${total}, processed_rows = 0
       WHERE id = ${exportId} AND status = 'in_queue'`), { job: true });
    // One query path for every format: the format only chooses the writer.
    // Names in the user's language, else the root order: a job has no browser (docs/sorting-by-language.md).
    const collation = isLocale(row.locale) ? SORT_COLLATION[row.locale] : ROOT_COLLATION;
    const batches = exportRows(reader, scope, filters, config().EXPORT_BATCH_SIZE, exportSort(row.sort), collation);
    return writeExportFile(row.format, exportId, recordingIds(batches, written), progress, signal);
  });

  // Publish: this export completed; the user's older exports (and their files) are replaced.
  const replaced = await transaction(async (tx) => {
    // A scope narrowed meanwhile: the file may hold rows the user no longer sees, so it is not published.
    if (!covers(await branchScopeOfUser(row.user_id, tx), scope)) {
      await tx.query(sql`UPDATE subscriber_exports SET status = 'failed', error = ${SCOPE_CHANGED} WHERE id = ${exportId} AND status = 'in_queue'`);
      return null;
    }
    const done = await tx.query<{ user_id: number }>(
      sql`UPDATE subscriber_exports SET status = 'completed', completed_at = now(), total_rows = ${rows},
         processed_rows = ${rows}, error = NULL, subscriber_ids = ${idRanges(written)}::int4multirange
       WHERE id = ${exportId} AND status = 'in_queue' RETURNING user_id`);
    if (done.length === 0) return null;
    const older = await tx.query<{ id: string }>(
      sql`DELETE FROM subscriber_exports WHERE user_id = ${done[0]!.user_id} AND id <> ${exportId} AND status <> 'in_queue' RETURNING id`);
    // No audit event marks a completed export, so its webhook event is recorded here: the file is fetched through the API, never sent.
    // Its words in English: a machine reads them.
    await recordEvent(tx, "export.completed", async () => ({
      ...exportStatusInWords(await exportStatus(done[0]!.user_id, tx), problemsIn("en")),
      export_id: exportId,
      user_id: done[0]!.user_id,
      download_url: downloadPath(exportId),
    }));
    return older.map((r) => r.id);
  });
  if (replaced === null) {
    // Removed, finished or failed meanwhile (a purge, a parallel attempt, a narrowed scope): our file has no row.
    await deleteExportFiles([exportId]);
    return { exportId, skipped: "the export changed while its file was written" };
  }
  await deleteExportFiles(replaced);
  return { exportId, rows };
}

/** The batches passed on, each row's id (its first value) noted: the ids the file holds, whatever changed meanwhile. */
async function* recordingIds<B extends readonly (readonly string[])[]>(batches: AsyncIterable<B>, ids: number[]): AsyncGenerator<B> {
  for await (const batch of batches) {
    for (const r of batch) ids.push(Number(r[0]));
    yield batch;
  }
}

/** Ids as a multirange literal of their runs, `{[1,4),[7,8)}`: small for the usual long runs of ids. */
export function idRanges(ids: number[]): string {
  const sorted = Int32Array.from(ids).sort();
  const runs: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1]! <= sorted[j]! + 1) j++;
    runs.push(`[${sorted[i]},${sorted[j]! + 1})`);
    i = j + 1;
  }
  return `{${runs.join(",")}}`;
}

/** The last attempt failed (or its worker died): the export is failed, with why (a problem key), and a new request allowed. */
export async function markExportFailed(exportId: string, message: string): Promise<boolean> {
  const updated = await transaction((tx) => tx.query(
    sql`UPDATE subscriber_exports SET status = 'failed', error = ${cutText(message, 500)} WHERE id = ${exportId} AND status = 'in_queue' RETURNING id`));
  if (updated.length > 0) await deleteExportFiles([exportId]);
  return updated.length > 0;
}
