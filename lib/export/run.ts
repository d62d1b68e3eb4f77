import { exportConfig } from "./config";
import { deleteExportFiles, writeCsvFile } from "./files";
import { storedFilters } from "./filters";
import { countRows, exportRows } from "./rows";
import { exportSql } from "./sql";

// One attempt at one export: what the queue's worker runs for a job. Safe to run again after a
// crash (the file is rebuilt from the start under a new temporary name) and a no-op once the
// export is no longer in_queue.

/** How often the row's processed_rows is updated while writing (not on every row or batch). */
const PROGRESS_EVERY_MS = 1000;

export type RunResult = { exportId: string; rows: number } | { exportId: string; skipped: string };

export async function runExport(exportId: string, signal?: AbortSignal): Promise<RunResult> {
  const sql = await exportSql();
  const [row] = await sql.query<{ status: string; filters: unknown }>(
    `SELECT status::text AS status, filters FROM subscriber_exports WHERE id = $1`,
    [exportId],
  );
  if (!row) return { exportId, skipped: "the export no longer exists" };
  if (row.status !== "in_queue") return { exportId, skipped: `the export is ${row.status}` };

  const filters = storedFilters(row.filters);
  let lastUpdate = Date.now();
  const progress = async (rows: number) => {
    if (Date.now() - lastUpdate < PROGRESS_EVERY_MS) return;
    lastUpdate = Date.now();
    // On PGlite (no snapshot) rows added since the count are exported too: the bar stays below
    // 100% until completion.
    await sql.query(`UPDATE subscriber_exports SET processed_rows = LEAST($2, total_rows) WHERE id = $1`, [exportId, rows]);
  };
  // The count and the rows in one snapshot (PostgreSQL), so the file holds exactly `total` rows.
  const rows = await sql.read(async (reader) => {
    const total = await countRows(reader, filters);
    await sql.query(
      `UPDATE subscriber_exports SET started_at = now(), total_rows = $2, processed_rows = 0
       WHERE id = $1 AND status = 'in_queue'`,
      [exportId, total],
    );
    return writeCsvFile(exportId, exportRows(reader, filters, exportConfig.batchSize), progress, signal);
  });

  // Publish: this export completed; the user's older exports (and their files) are replaced.
  const replaced = await sql.transaction(async (tx) => {
    const done = await tx.query<{ user_id: number }>(
      `UPDATE subscriber_exports SET status = 'completed', completed_at = now(), total_rows = $2,
         processed_rows = $2, error = NULL
       WHERE id = $1 AND status = 'in_queue' RETURNING user_id`,
      [exportId, rows],
    );
    if (done.length === 0) return null;
    const older = await tx.query<{ id: string }>(
      `DELETE FROM subscriber_exports WHERE user_id = $1 AND id <> $2 AND status <> 'in_queue' RETURNING id`,
      [done[0]!.user_id, exportId],
    );
    return older.map((r) => r.id);
  });
  if (replaced === null) {
    // Removed or finished meanwhile (a purge, a parallel attempt): our file has no row.
    await deleteExportFiles([exportId]);
    return { exportId, skipped: "the export changed while its file was written" };
  }
  await deleteExportFiles(replaced);
  return { exportId, rows };
}

/** The last attempt failed (or its worker died): the export is failed and a new request allowed. */
export async function markExportFailed(exportId: string, message: string): Promise<boolean> {
  const sql = await exportSql();
  const updated = await sql.query(
    `UPDATE subscriber_exports SET status = 'failed', error = $2 WHERE id = $1 AND status = 'in_queue' RETURNING id`,
    [exportId, message.slice(0, 500)],
  );
  if (updated.length > 0) await deleteExportFiles([exportId]);
  return updated.length > 0;
}
