import fs from "node:fs";
import { exportConfig } from "./config";
import { deleteExportFiles, strayFiles } from "./files";
import { EXPORT_QUEUE } from "./queue";
import { markExportFailed } from "./run";
import { exportSql } from "./sql";

// The scheduled clean-up (PURGE_QUEUE, every 15 minutes by default):
// 1. exports unused (not requested, completed nor downloaded) for EXPORT_RETENTION_HOURS lose
//    their row and file;
// 2. files no row points at, and temporary files of killed writers, are removed;
// 3. an in_queue export whose job is gone (deleted by hand, archived) is failed, so its user
//    can request again: a safety net behind the dead-letter queue.

export type PurgeResult = { purged: number; strays: number; lost: number };

const STRAY_AFTER_MS = 60 * 60 * 1000;

export async function purgeExports(now: Date = new Date()): Promise<PurgeResult> {
  const sql = await exportSql();
  const cutoff = new Date(now.getTime() - exportConfig.retentionHours * 3600 * 1000);
  const purged = await sql.query<{ id: string }>(
    `DELETE FROM subscriber_exports
     WHERE status <> 'in_queue' AND GREATEST(created_at, completed_at, downloaded_at) < $1 RETURNING id`,
    [cutoff],
  );
  await deleteExportFiles(purged.map((r) => r.id));

  const known = new Set((await sql.query<{ id: string }>(`SELECT id FROM subscriber_exports`)).map((r) => r.id));
  const strays = await strayFiles(known, STRAY_AFTER_MS);
  for (const file of strays) await fs.promises.rm(file, { force: true });

  const lost = await sql.query<{ id: string }>(
    `SELECT e.id FROM subscriber_exports e
     WHERE e.status = 'in_queue' AND e.created_at < $1 AND NOT EXISTS (
       SELECT 1 FROM pgboss.job j WHERE j.name = $2 AND j.id::text = e.job_id AND j.state < 'completed')`,
    [new Date(now.getTime() - 10 * 60 * 1000), EXPORT_QUEUE],
  );
  for (const { id } of lost) await markExportFailed(id, "The export job was lost. Request it again.");
  return { purged: purged.length, strays: strays.length, lost: lost.length };
}
