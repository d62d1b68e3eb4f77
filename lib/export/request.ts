import "server-only";
import crypto from "node:crypto";
import { auditStatement } from "@/lib/audit/log";
import { tokenExportEntry } from "@/lib/tokens/tokens";
import type { SessionUser } from "@/lib/auth/permissions";
import { parallelWorkers, statementTimeoutMs } from "@/lib/db/config";
import { alreadyQueued, isUniqueViolation } from "./errors";
import type { ParsedExportFilters } from "./filters";
import { newJobId } from "@/lib/jobs/ids";
import { queue, sendJob } from "@/lib/jobs/queue";
import { subscriberCountSql } from "@/lib/subscribers/queries";
import { connection, sql } from "@/lib/db/sql";
import { exportStatus, type ExportStatusBody } from "./status";

/** Namespace of the advisory locks that let one export request of a user run at a time. */
const REQUEST_LOCK = 0x45585054; // "EXPT"

/**
 * Requests the user's export file for the given (already parsed) filters.
 *
 * The export row and its job are inserted in one transaction on one connection (pg-boss `send`
 * with our transaction as its `db`): a failure leaves neither. One `in_queue` export per user is
 * decided first, before the rows are counted: the transaction takes the user's advisory lock
 * without waiting (a concurrent request of the same user answers 409 at once) and looks for an
 * export in_queue; only then does it count. Twenty simultaneous requests count once (they each
 * counted, then 19 failed on the unique index). The partial unique index
 * subscriber_exports_one_in_queue_per_user stays as the database's own guarantee.
 */
export async function requestExport(user: Pick<SessionUser, "id" | "email">, filters: ParsedExportFilters): Promise<ExportStatusBody> {
  const userId = user.id;
  const conn = await connection();
  await queue(); // started outside the transaction: on PGlite that holds the only connection
  const id = newJobId();
  const timeout = statementTimeoutMs();
  try {
    await conn.transaction(async (tx) => {
      const [lock] = await tx.query<{ locked: boolean }>(sql`SELECT pg_try_advisory_xact_lock(${REQUEST_LOCK}, ${userId}) AS locked`);
      if (!lock?.locked) throw alreadyQueued();
      const queued = await tx.query(sql`SELECT 1 FROM subscriber_exports WHERE user_id = ${userId} AND status = 'in_queue' LIMIT 1`);
      if (queued.length > 0) throw alreadyQueued();
      // The count is the request's own work: bounded like any statement of the web's pool, on one core.
      if (conn.kind === "postgres") {
        if (timeout > 0) await tx.query(`SET LOCAL statement_timeout = ${timeout}`);
        await tx.query(`SET LOCAL max_parallel_workers_per_gather = ${parallelWorkers()}`);
      }
      // The list's own count statement, with its fast paths (trigger-kept totals when unfiltered).
      const [counted] = await tx.query<{ total: number }>(subscriberCountSql(filters.values));
      const total = counted?.total ?? 0;
      const jobId = crypto.randomUUID();
      await tx.query(
        sql`INSERT INTO subscriber_exports (id, user_id, status, filters, fresh, total_rows, job_id)
         VALUES (${id}, ${userId}, 'in_queue', ${JSON.stringify(filters.raw)}::jsonb,
           NOT EXISTS (SELECT 1 FROM subscriber_exports WHERE user_id = ${userId} AND status = 'completed'), ${total}, ${jobId})`);
      await sendJob(tx, { kind: "export", id, userId }, jobId);
      await tx.query(await auditStatement({ action: "export.request", actor: user, entity: "export", entityId: id, after: { filters: filters.raw, total_rows: total } }));
      const viaToken = tokenExportEntry("request", id);
      if (viaToken) await tx.query(await auditStatement(viaToken));
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyQueued();
    throw error;
  }
  return exportStatus(userId);
}
