import "server-only";
import type { SessionUser } from "@/lib/auth/permissions";
import { serializeBranch, type BranchRow } from "@/lib/branches/queries";
import { isUniqueViolation } from "@/lib/db/errors";
import { connection, sql } from "@/lib/db/sql";
import { transaction } from "@/lib/db/transaction";
import { AppError } from "@/lib/errors";
import { problem } from "@/lib/i18n/problem";
import { branchNotInTrash } from "./refusals";
import { config } from "@/lib/config";

// Branches in the trash keep their row with `deleted_at` set (docs/decisions/0031-trash.md): every
// read of branches leaves them out (lib/branches/where.ts, the user's scope), their subscribers
// keep the link and show no branch. Restoring clears it; erasing deletes the row, after detaching
// its subscribers in short batches (the foreign key's SET NULL would rewrite them all at once).

const COLUMNS = sql`b.id, b.name, b.created_at, b.updated_at`;

/** Takes a branch out of the trash: 404 unless it is there, 409 naming the branch that has its name now. */
export async function restoreBranch(id: number, actor: SessionUser): Promise<BranchRow> {
  return transaction(async (q) => {
    const [trashed] = await q.query<BranchRow>(sql`SELECT ${COLUMNS} FROM branches b WHERE b.id = ${id} AND b.deleted_at IS NOT NULL FOR UPDATE`);
    if (!trashed) throw branchNotInTrash();
    const [taken] = await q.query<{ id: number; name: string }>(sql`SELECT id, name FROM branches
      WHERE lower(name) = lower(${trashed.name}) AND deleted_at IS NULL AND id <> ${id} LIMIT 1`);
    if (taken) throw nameTaken(trashed.name, taken);
    const [branch] = await q.query<BranchRow>(sql`UPDATE branches b SET deleted_at = NULL, deleted_by = NULL, updated_at = now()
      WHERE b.id = ${id} RETURNING ${COLUMNS}`);
    await q.audit({ action: "branch.restore", actor, entity: "branch", entityId: id, after: serializeBranch(branch!) });
    return branch!;
  }).catch((error: unknown) => {
    // A branch given the name between our check and the update: the same 409.
    if (isUniqueViolation(error)) throw nameTaken(null, null);
    throw error;
  });
}

function nameTaken(name: string | null, taken: { id: number; name: string } | null): AppError {
  const message = taken ? problem("trash.nameTakenBy", { name: taken.name, id: String(taken.id) }) : problem("trash.nameTaken");
  return new AppError(409, "conflict", message, { name: [message] }, undefined, taken ? { conflicting_branch: taken, name } : undefined);
}

/** Subscribers detached per transaction when a branch is erased. */
const DETACH_BATCH = 2_000;

/**
 * Erases a trashed branch for good: its subscribers (and trashed subscribers) are left without a
 * branch, in short batches, then the row goes with its audit event. 404 unless it is in the trash.
 */
export async function eraseBranch(id: number, actor: SessionUser | null): Promise<BranchRow> {
  const conn = await connection();
  const [found] = await conn.query<BranchRow>(sql`SELECT ${COLUMNS} FROM branches b WHERE b.id = ${id} AND b.deleted_at IS NOT NULL`);
  if (!found) throw branchNotInTrash();
  const size = Math.min(config().BULK_BATCH_SIZE, DETACH_BATCH);
  for (const table of [sql`subscribers`, sql`subscriber_trash`]) {
    for (;;) {
      const detached = await transaction(async (tx) => {
        // Held until commit, so a restore waits for this batch, and a batch after a restore detaches nothing.
        const [still] = await tx.query(sql`SELECT 1 AS trashed FROM branches WHERE id = ${id} AND deleted_at IS NOT NULL FOR SHARE`);
        if (!still) throw branchNotInTrash();
        return tx.query<{ id: number }>(sql`UPDATE ${table} SET branch_id = NULL WHERE id IN (
          SELECT id FROM ${table} WHERE branch_id = ${id} ORDER BY id LIMIT ${size} FOR UPDATE) RETURNING id`);
      });
      if (detached.length < size) break;
    }
  }
  return transaction(async (tx) => {
    // Still in the trash (not restored meanwhile); anything attached since is detached by the foreign key.
    const [gone] = await tx.query<BranchRow>(sql`DELETE FROM branches b WHERE b.id = ${id} AND b.deleted_at IS NOT NULL RETURNING ${COLUMNS}`);
    if (!gone) throw branchNotInTrash();
    await tx.audit({ action: "branch.erase", actor, entity: "branch", entityId: id, before: serializeBranch(gone), request: actor ? undefined : { ip: null, userAgent: "trash clean-up" } });
    return gone;
  });
}
