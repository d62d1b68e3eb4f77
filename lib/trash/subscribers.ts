import type { Tx } from "@/lib/db/transaction";
import { sql } from "@/lib/db/sql";
import { decideDuplicates, lockKeySets } from "@/lib/subscribers/duplicates";

// Subscribers in the trash: the row is moved out of `subscribers` whole (same id) into
// `subscriber_trash`, so every read of subscribers, the trigger-kept counts, duplicate decisions
// and exports forget it without a condition of their own; restoring moves it back
// (docs/decisions/0031-trash.md). Each function runs in the caller's transaction, rows locked in
// id order before their keys, as edits lock their row before its keys: one order, no deadlock.

/** Every column a subscriber row has, in the order both tables declare them. */
const COLUMNS = sql`id, first_name, last_name, email, mobile, branch_id, country_id, sheet_id, travel_date,
  subscription_status, is_mandatory, created_at`;

export type TrashOptions = {
  /** The user who deleted them (null: a job whose user is gone). */
  deletedBy: number | null;
  /** The subscriber they were merged into (a duplicate merge). */
  mergedInto?: number | null;
  /** The bulk deletion moving them (its undo restores them). */
  bulkChangeId?: string | null;
  /**
   * Whether later subscribers that matched them are decided again in this transaction (default
   * true); a bulk deletion job decides after its last batch instead (docs/decisions/0015-bulk-deletion-decides-duplicates-after.md).
   */
  decideAgain?: boolean;
};

const unique = (ids: readonly number[]) => [...new Set(ids)].sort((a, b) => a - b);

/**
 * Moves the subscribers of `ids` that exist to the trash, in the caller's transaction (`tx`), with
 * their keys locked as creation locks them; returns the ids moved, ascending. The caller checks
 * who may, the scope, and writes the audit event.
 */
export async function trashSubscribers(tx: Tx, ids: readonly number[], options: TrashOptions): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await tx.query<{ id: number; email: string; mobile: string }>(sql`
    SELECT id, lower(email) AS email, mobile FROM subscribers WHERE id = ANY(${unique(ids)}::int[]) ORDER BY id FOR UPDATE`);
  if (rows.length === 0) return [];
  const emails = rows.map((r) => r.email);
  const mobiles = rows.map((r) => r.mobile);
  await lockKeySets(tx, emails, mobiles);
  const moved = await tx.query<{ id: number }>(sql`
    WITH gone AS (DELETE FROM subscribers WHERE id = ANY(${rows.map((r) => r.id)}::int[]) RETURNING *)
    INSERT INTO subscriber_trash (${COLUMNS}, is_duplicate, updated_at, deleted_at, deleted_by, merged_into, bulk_change_id)
    SELECT ${COLUMNS}, is_duplicate, updated_at, now(), ${options.deletedBy}::int, ${options.mergedInto ?? null}::int, ${options.bulkChangeId ?? null}::varchar
      FROM gone
    RETURNING id`);
  const movedIds = unique(moved.map((r) => r.id));
  if ((options.decideAgain ?? true) && movedIds.length) await decideDuplicates(tx, emails, mobiles, movedIds[0]!);
  return movedIds;
}

/**
 * Moves the trashed subscribers of `ids` back, in the caller's transaction; their duplicate flags
 * and those of later subscribers sharing a key are decided again (a restore can only add flags
 * after it). Their version (`updated_at`) moves: a form opened before the deletion gets a 409.
 * Returns the ids restored, ascending; ids not in the trash are left out.
 */
export async function restoreSubscribers(tx: Tx, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await tx.query<{ id: number; email: string; mobile: string }>(sql`
    SELECT id, lower(email) AS email, mobile FROM subscriber_trash WHERE id = ANY(${unique(ids)}::int[]) ORDER BY id FOR UPDATE`);
  if (rows.length === 0) return [];
  const emails = rows.map((r) => r.email);
  const mobiles = rows.map((r) => r.mobile);
  await lockKeySets(tx, emails, mobiles);
  // Back unflagged, then decided by the rule with everyone sharing their keys (lib/subscribers/duplicates.ts).
  const restored = await tx.query<{ id: number }>(sql`
    WITH back AS (DELETE FROM subscriber_trash WHERE id = ANY(${rows.map((r) => r.id)}::int[]) RETURNING *)
    INSERT INTO subscribers (${COLUMNS}, is_duplicate, updated_at)
    SELECT ${COLUMNS}, false, now() FROM back
    RETURNING id`);
  const restoredIds = unique(restored.map((r) => r.id));
  if (restoredIds.length) await decideDuplicates(tx, emails, mobiles, restoredIds[0]!);
  return restoredIds;
}

/** Erases trashed subscribers for good, in the caller's transaction; returns the ids erased, ascending. */
export async function eraseSubscribers(tx: Tx, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const erased = await tx.query<{ id: number }>(sql`DELETE FROM subscriber_trash WHERE id = ANY(${unique(ids)}::int[]) RETURNING id`);
  const erasedIds = unique(erased.map((r) => r.id));
  if (erasedIds.length) await forgetErased(tx, erasedIds);
  return erasedIds;
}

/**
 * What must not outlive an erased subscriber (docs/decisions/0031-trash.md): the values its own
 * audit events hold (the events stay, saying what happened to which id, and that it was erased).
 */
async function forgetErased(tx: Tx, ids: number[]) {
  await tx.query(sql`UPDATE audit_events
      SET before = CASE WHEN before IS NULL THEN NULL ELSE jsonb_build_object('id', entity_id::int, 'erased', true) END,
          after = CASE WHEN after IS NULL THEN NULL ELSE jsonb_build_object('id', entity_id::int, 'erased', true) END
    WHERE entity = 'subscriber' AND entity_id = ANY(${ids.map(String)}::text[])`);
}
