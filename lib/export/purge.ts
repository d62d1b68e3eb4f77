import { config } from "@/lib/config";
import { deleteExportFiles, strayFiles } from "./files";
import { JOB_QUEUE, LEGACY_QUEUES } from "@/lib/jobs/queue";
import { idRanges, markExportFailed } from "./run";
import { connection, sql } from "@/lib/db/sql";
import { transaction } from "@/lib/db/transaction";
import { problem, type ProblemKey } from "@/lib/i18n/problem";
import { storage } from "@/lib/storage";

// The scheduled clean-up: unused exports past EXPORT_RETENTION_HOURS, orphaned files and
// unfinished writes, and in_queue exports whose job is gone (so their user can request again).

type PurgeResult = { purged: number; strays: number; lost: number };

const STRAY_AFTER_MS = 60 * 60 * 1000;

export async function purgeExports(now: Date = new Date()): Promise<PurgeResult> {
  const conn = await connection();
  const cutoff = new Date(now.getTime() - config().EXPORT_RETENTION_HOURS * 3600 * 1000);
  const purged = await transaction((tx) => tx.query<{ id: string }>(
    sql`DELETE FROM subscriber_exports
     WHERE status <> 'in_queue' AND GREATEST(created_at, completed_at, downloaded_at) < ${cutoff} RETURNING id`), { job: true });
  await deleteExportFiles(purged.map((r) => r.id));

  const known = new Set((await conn.query<{ id: string }>(`SELECT id FROM subscriber_exports`)).map((r) => r.id));
  const strays = await strayFiles(known, STRAY_AFTER_MS);
  await storage().delete(strays);
  const incomplete = await storage().sweepIncomplete(STRAY_AFTER_MS);

  const lost = await conn.query<{ id: string }>(
    sql`SELECT e.id FROM subscriber_exports e
     WHERE e.status = 'in_queue' AND e.created_at < ${new Date(now.getTime() - 10 * 60 * 1000)} AND NOT EXISTS (
       SELECT 1 FROM pgboss.job j WHERE j.name = ANY(${[JOB_QUEUE, LEGACY_QUEUES[0].name]}) AND j.id::text = e.job_id AND j.state < 'completed')`);
  for (const { id } of lost) await markExportFailed(id, problem("export.jobLost"));
  return { purged: purged.length, strays: strays.length + incomplete, lost: lost.length };
}

/** The problem key of a withdrawn export's error; a download of it answers 410 `erased_data`. */
export const WITHDRAWN: ProblemKey = "export.withdrawn";
/** What the English error of an export withdrawn before it was a problem key says (after its size). */
export const WITHDRAWN_BEFORE = "was withdrawn";

/** Why files are withdrawn: a subscriber deleted forever (from the trash), a person erased, or subscribers past their retention period. */
export type WithdrawnBecause = "deleted" | "erased" | "retention";

/**
 * Erased subscribers leave no file behind (docs/decisions/0041-export-withdrawal.md): the completed
 * exports whose recorded ids hold one of them are withdrawn, their owners told by the export's
 * error; a file recorded before ids were kept goes if it was made before `deletedBefore`.
 */
export async function withdrawExportsHolding(ids: readonly number[], deletedBefore: Date, why: WithdrawnBecause = "deleted"): Promise<number> {
  if (ids.length === 0) return 0;
  // problem(WITHDRAWN, { rows, why }), spelt as it spells it, with each file's own row count, which only the statement has.
  const gone = await transaction((tx) => tx.query<{ id: string }>(
    sql`UPDATE subscriber_exports SET status = 'failed', error = ${`${WITHDRAWN} {"rows":`}::text || total_rows::text || ${`,"why":${JSON.stringify(why)}}`}::text
     WHERE status = 'completed' AND (subscriber_ids && ${idRanges([...ids])}::int4multirange
       OR (subscriber_ids IS NULL AND created_at < ${deletedBefore})) RETURNING id`), { job: true });
  await deleteExportFiles(gone.map((r) => r.id));
  return gone.length;
}
