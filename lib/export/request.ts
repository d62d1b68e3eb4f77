import "server-only";
import { problem } from "@/lib/i18n/problem";
import crypto from "node:crypto";
import { tokenExportEntry } from "@/lib/tokens/tokens";
import type { SessionUser } from "@/lib/auth/permissions";
import type { BranchScope } from "@/lib/auth/scope";
import { parallelWorkers, statementTimeoutMs } from "@/lib/db/config";
import { AppError } from "@/lib/errors";
import { alreadyQueued, isUniqueViolation } from "./errors";
import type { ParsedExportFilters } from "./filters";
import type { ExportFormat } from "./format";
import { newJobId } from "@/lib/jobs/ids";
import { queue, sendJob } from "@/lib/jobs/queue";
import { subscriberCountSql } from "@/lib/subscribers/queries";
import { connection, sql } from "@/lib/db/sql";
import { exportStatus, type ExportStatusBody } from "./status";
import { transaction } from "@/lib/db/transaction";

/** Namespace of the advisory locks that let one export request of a user run at a time. */
const REQUEST_LOCK = 0x45585054; // "EXPT"

/**
 * Requests an export: its row and job inserted in one transaction (docs/decisions/0004-export-queue-in-postgresql.md).
 * The user's lock is tried first (409 at once if held), so concurrent requests do not each count the rows.
 */
export async function requestExport(
  scope: BranchScope,
  user: Pick<SessionUser, "id" | "email">,
  filters: ParsedExportFilters,
  format: ExportFormat = "csv",
  { refuseEmpty = false } = {},
): Promise<ExportStatusBody> {
  const userId = user.id;
  const conn = await connection();
  await queue(); // started outside the transaction: on PGlite that holds the only connection
  const id = newJobId();
  const timeout = statementTimeoutMs();
  try {
    await transaction(async (tx) => {
      const [lock] = await tx.query<{ locked: boolean }>(sql`SELECT pg_try_advisory_xact_lock(${REQUEST_LOCK}, ${userId}) AS locked`);
      if (!lock?.locked) throw alreadyQueued();
      const queued = await tx.query(sql`SELECT 1 FROM subscriber_exports WHERE user_id = ${userId} AND status = 'in_queue' LIMIT 1`);
      if (queued.length > 0) throw alreadyQueued();
      // Bounded like any statement of the web's pool.
      if (conn.kind === "postgres") {
        if (timeout > 0) await tx.query(`SET LOCAL statement_timeout = ${timeout}`);
        await tx.query(`SET LOCAL max_parallel_workers_per_gather = ${parallelWorkers()}`);
      }
      // The list's own count statement, with its fast paths (trigger-kept totals when unfiltered).
      const [counted] = await tx.query<{ total: number }>(subscriberCountSql(scope, filters.values));
      const total = counted?.total ?? 0;
      // The panel says so before anything runs (its count may be older than this one); the API keeps its empty files.
      if (total === 0 && refuseEmpty) throw new AppError(422, "nothing_to_export", problem("export.nothingToExport"));
      const jobId = crypto.randomUUID();
      await tx.query(
        sql`INSERT INTO subscriber_exports (id, user_id, status, format, filters, sort, fresh, total_rows, job_id)
         VALUES (${id}, ${userId}, 'in_queue', ${format}::"ExportFormat", ${JSON.stringify(filters.raw)}::jsonb, ${filters.sort},
           NOT EXISTS (SELECT 1 FROM subscriber_exports WHERE user_id = ${userId} AND status = 'completed'), ${total}, ${jobId})`);
      await sendJob(tx, { kind: "export", id, userId }, jobId);
      await tx.audit({ action: "export.request", actor: user, entity: "export", entityId: id, after: { filters: filters.raw, sort: filters.sort, format, total_rows: total } });
      const viaToken = tokenExportEntry("request", id);
      if (viaToken) await tx.audit(viaToken);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyQueued();
    throw error;
  }
  return exportStatus(userId);
}
