import "server-only";
import type { SessionUser } from "@/lib/auth/permissions";
import { subscribersOf, type BranchScope } from "@/lib/auth/scope";
import { sql, type Queryable } from "@/lib/db/sql";
import { transaction } from "@/lib/db/transaction";
import { AppError } from "@/lib/errors";
import { problem } from "@/lib/i18n/problem";
import { decideDuplicates, lockKeysOf, removeDismissals, storeDismissals } from "./duplicates";
import { forgetGroupCounts } from "./duplicate-count";

// "Not duplicates" (anyone signed in) and its undo (admins): every pair of the named subscribers
// is stored or removed, and the flags of everyone sharing their keys are decided again by the rule,
// in one transaction with its audit event (docs/decisions/0032-duplicates-decided-in-one-place.md).

export type DismissalResult = { ids: number[]; pairs: [number, number][]; decided_again: number[] };

/** The named subscribers, locked; any outside the scope or unknown is a 404 naming it. */
async function lockSubscribers(q: Queryable, scope: BranchScope, ids: readonly number[]) {
  const found = new Set((await q.query<{ id: number }>(sql`SELECT s.id FROM ${subscribersOf(scope)} s
    WHERE s.id = ANY(${[...ids]}::int[]) ORDER BY s.id FOR UPDATE`)).map((r) => r.id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) throw new AppError(404, "not_found", problem("duplicates.notFound", { count: missing.length, ids: missing.join(", ") }));
}

async function changeDismissals(scope: BranchScope, ids: readonly number[], actor: SessionUser, undo: boolean): Promise<DismissalResult> {
  const result = await transaction(async (q) => {
    await lockSubscribers(q, scope, ids);
    const keys = await lockKeysOf(q, ids);
    const pairs = undo ? await removeDismissals(q, ids) : await storeDismissals(q, ids, actor.id);
    const decided = await decideDuplicates(q, keys.emails, keys.mobiles, Math.min(...ids));
    const sorted = [...ids].sort((a, b) => a - b);
    await q.audit({
      action: undo ? "subscriber.duplicates_again" : "subscriber.not_duplicates",
      actor,
      // No one entity: the subscribers' histories find it by `after.ids` (lib/subscribers/record.ts).
      entity: "duplicates",
      after: { ids: sorted, pairs, duplicates_reevaluated: decided },
    });
    return { ids: sorted, pairs, decided_again: decided };
  });
  forgetGroupCounts();
  return result;
}

/** These subscribers are not duplicates of each other: stored, flags decided again, audited. */
export const dismissDuplicates = (scope: BranchScope, ids: readonly number[], actor: SessionUser) => changeDismissals(scope, ids, actor, false);

/** Takes "not duplicates" back between these subscribers (admins: the caller's guard). */
export const undoDismissal = (scope: BranchScope, ids: readonly number[], actor: SessionUser) => changeDismissals(scope, ids, actor, true);

export type Dismissal = { other_id: number; created_at: Date; by: string | null };

/** The subscribers this one was marked "not duplicates" of, that the scope sees (its record page). */
export async function dismissalsOf(q: Queryable, scope: BranchScope, id: number): Promise<Dismissal[]> {
  return q.query<Dismissal>(sql`
    SELECT s.id AS other_id, d.created_at, u.name AS by FROM subscriber_dismissals d
      JOIN ${subscribersOf(scope)} s ON s.id = CASE WHEN d.low_id = ${id} THEN d.high_id ELSE d.low_id END
      LEFT JOIN users u ON u.id = d.created_by
     WHERE d.low_id = ${id} OR d.high_id = ${id}
     ORDER BY s.id LIMIT 50`);
}
