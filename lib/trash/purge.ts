import { audit } from "@/lib/audit/log";
import { TRASHED_BRANCHES } from "@/lib/auth/scope";
import { config } from "@/lib/config";
import { connection, sql } from "@/lib/db/sql";
import { AppError } from "@/lib/errors";
import { eraseBranch } from "./branches";
import { withdrawExportsHolding } from "@/lib/export/purge";
import { eraseSubscribers } from "./subscribers";
import { transaction } from "@/lib/db/transaction";

// The scheduled clean-up's part for the trash (docs/decisions/0031-trash.md): what has been in the
// trash for TRASH_RETENTION_DAYS is erased, in short transactions, with what must not outlive it
// (its audit values, the export files holding it), and the values bulk changes recorded
// for an undo no longer possible.

/** Rows per transaction: short, so the clean-up never holds locks long beside users' work. */
const PURGE_BATCH = 1_000;

export type TrashPurge = { subscribers: number; branches: number; undo_rows: number; exports: number };

export async function purgeTrash(now: Date = new Date()): Promise<TrashPurge> {
  const conn = await connection();
  const cutoff = new Date(now.getTime() - config().TRASH_RETENTION_DAYS * 86_400_000);
  const result: TrashPurge = { subscribers: 0, branches: 0, undo_rows: 0, exports: 0 };

  for (;;) {
    const batch = await transaction(async (tx) => {
      const rows = await tx.query<{ id: number; deleted_at: Date }>(sql`SELECT id, deleted_at FROM subscriber_trash
        WHERE deleted_at < ${cutoff} ORDER BY deleted_at, id LIMIT ${PURGE_BATCH} FOR UPDATE SKIP LOCKED`);
      const erased = await eraseSubscribers(tx, rows.map((r) => r.id));
      return { erased, last: rows.at(-1)?.deleted_at ?? now };
    }, { job: true });
    if (batch.erased.length === 0) break;
    result.subscribers += batch.erased.length;
    result.exports += await withdrawExportsHolding(batch.erased, batch.last);
  }

  const branches = await conn.query<{ id: number }>(sql`SELECT b.id FROM ${TRASHED_BRANCHES} b WHERE b.deleted_at < ${cutoff} ORDER BY b.deleted_at, b.id`);
  for (const { id } of branches) {
    try {
      await eraseBranch(id, null);
      result.branches++;
    } catch (error) {
      // Restored while the clean-up ran: it stays.
      if (!(AppError.is(error) && error.status === 404)) throw error;
    }
  }

  for (;;) {
    const gone = await transaction((tx) => tx.query<{ n: number }>(sql`WITH old AS (
        SELECT r.bulk_change_id, r.subscriber_id FROM bulk_change_rows r JOIN bulk_changes b ON b.id = r.bulk_change_id
         WHERE b.created_at < ${cutoff} LIMIT ${PURGE_BATCH * 5}),
      d AS (DELETE FROM bulk_change_rows r USING old WHERE (r.bulk_change_id, r.subscriber_id) = (old.bulk_change_id, old.subscriber_id) RETURNING 1)
      SELECT count(*)::int AS n FROM d`), { job: true });
    const n = gone[0]?.n ?? 0;
    result.undo_rows += n;
    if (n === 0) break;
  }

  if (result.subscribers || result.branches) {
    await audit({ action: "trash.purge", entity: "trash", after: { ...result, older_than: cutoff.toISOString() }, request: { ip: null, userAgent: "trash clean-up" } });
  }
  return result;
}
