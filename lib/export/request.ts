import "server-only";
import crypto from "node:crypto";
import { auditStatement } from "@/lib/audit/log";
import type { SessionUser } from "@/lib/auth/permissions";
import { alreadyQueued, isUniqueViolation } from "./errors";
import type { ParsedExportFilters } from "./filters";
import { newExportId } from "./ids";
import { queue, sendExportJob } from "./queue";
import { countRows } from "./rows";
import { exportSql } from "./sql";
import { exportStatus, type ExportStatusBody } from "./status";

/**
 * Requests the user's export file for the given (already parsed) filters.
 *
 * The export row and its job are inserted in one transaction on one connection (pg-boss `send`
 * with our transaction as its `db`): a failure leaves neither. One `in_queue` export per user is
 * enforced by the database (partial unique index subscriber_exports_one_in_queue_per_user), so
 * concurrent requests of one user produce one row and one job, and the others a 409.
 */
export async function requestExport(user: Pick<SessionUser, "id" | "email">, filters: ParsedExportFilters): Promise<ExportStatusBody> {
  const userId = user.id;
  const sql = await exportSql();
  await queue(); // started outside the transaction: on PGlite that holds the only connection
  const queued = await sql.query(
    `SELECT 1 FROM subscriber_exports WHERE user_id = $1 AND status = 'in_queue' LIMIT 1`,
    [userId],
  );
  if (queued.length > 0) throw alreadyQueued();
  const total = await countRows(sql, filters.values);
  const id = newExportId();
  try {
    await sql.transaction(async (tx) => {
      const jobId = crypto.randomUUID();
      await tx.query(
        `INSERT INTO subscriber_exports (id, user_id, status, filters, fresh, total_rows, job_id)
         VALUES ($1, $2, 'in_queue', $3::jsonb,
           NOT EXISTS (SELECT 1 FROM subscriber_exports WHERE user_id = $2 AND status = 'completed'), $4, $5)`,
        [id, userId, JSON.stringify(filters.raw), total, jobId],
      );
      await sendExportJob(tx, id, jobId);
      const event = await auditStatement({ action: "export.request", actor: user, entity: "export", entityId: id, after: { filters: filters.raw, total_rows: total } });
      await tx.query(event.text, event.values);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyQueued();
    throw error;
  }
  return exportStatus(userId);
}
