import "server-only";
import type { Tx } from "@/lib/db/transaction";
import type { SessionUser } from "@/lib/auth/permissions";
import { subscribersOf, type BranchScope } from "@/lib/auth/scope";
import { sql, type Queryable } from "@/lib/db/sql";
import { transaction } from "@/lib/db/transaction";
import { AppError } from "@/lib/errors";
import { listOf, problem } from "@/lib/i18n/problem";
import { isoDay } from "@/lib/format";
import { newJobId } from "@/lib/jobs/ids";
import { restoreSubscribers, trashSubscribers } from "@/lib/trash/subscribers";
import type { MergeField, MergeInput } from "./duplicate-schema";
import { forgetGroupCounts } from "./duplicate-count";
import { decideDuplicates, lockKeySets } from "./duplicates";
import { sameVersion } from "./edit";
import { changedFields, findSubscriber, RECORD_COLUMNS, serializeRecord, type SubscriberDetail } from "./record";
import type { SubscriberValues } from "./schema";
import { SUBSCRIBER_JOINS } from "./where";

// Merging duplicates (administrators): the survivor takes the chosen values, the others go to the
// trash with `merged_into`, every flag involved is decided again, all in one transaction; the
// survivor's values before are kept so the merge can be undone
// (docs/decisions/0032-duplicates-decided-in-one-place.md).

/** `own_branch_id`: the stored link, kept even while its branch is in the trash. */
type Row = SubscriberDetail & { sheet_id: number | null; own_branch_id: number | null };

/** The survivor's own columns a merge can change, as stored (what an undo puts back). */
type Columns = Omit<SubscriberValues, "sheet_name"> & { sheet_id: number | null };

/** Which stored columns each field of docs/API.md's subscriber is. */
const COLUMNS_OF: Record<MergeField, (keyof Columns)[]> = {
  first_name: ["first_name"],
  last_name: ["last_name"],
  email: ["email"],
  mobile: ["mobile"],
  branch_name: ["branch_id"],
  country_name: ["country_id"],
  travel_date: ["travel_date"],
  sheet: ["sheet_id"],
  subscription_status: ["subscription_status"],
  is_mandatory: ["is_mandatory"],
};

const columnsOf = (r: Row): Columns => ({
  first_name: r.first_name,
  last_name: r.last_name,
  email: r.email,
  mobile: r.mobile,
  branch_id: r.own_branch_id,
  country_id: r.country_id,
  sheet_id: r.sheet_id,
  travel_date: r.travel_date ? isoDay(r.travel_date) : null,
  subscription_status: r.subscription_status,
  is_mandatory: r.is_mandatory,
});

const writeColumns = (tx: Tx, id: number, c: Columns) =>
  // eslint-disable-next-line console/scoped-sources -- a row mergeSubscribers read and locked through subscribersOf(scope).
  tx.query<{ updated_at: Date }>(sql`UPDATE subscribers SET first_name = ${c.first_name}, last_name = ${c.last_name}, email = ${c.email},
      mobile = ${c.mobile}, branch_id = ${c.branch_id}::int, country_id = ${c.country_id}::int, sheet_id = ${c.sheet_id}::int,
      travel_date = ${c.travel_date}::date, subscription_status = ${c.subscription_status}::"SubscriptionStatus",
      is_mandatory = ${c.is_mandatory}, updated_at = now()
    WHERE id = ${id} RETURNING updated_at`);

/** Who last changed a subscriber, when, and which fields (its newest audit event). */
async function lastChange(q: Queryable, id: number): Promise<{ id: number; by: string | null; at: string; fields: string[] }> {
  const [event] = await q.query<{ actor_email: string | null; at: Date; before: Record<string, unknown> | null; after: Record<string, unknown> | null }>(sql`
    SELECT actor_email, at, before, after FROM audit_events WHERE entity = 'subscriber' AND entity_id = ${String(id)} ORDER BY at DESC, id DESC LIMIT 1`);
  return { id, by: event?.actor_email ?? null, at: (event?.at ?? new Date()).toISOString(), fields: changedFields(event?.before ?? null, event?.after ?? null) };
}

/** A change as a problem's values: who (or someone unknown), when (a date the reader's words format) and which fields. */
const changeWords = (c: { id: number; by: string | null; at: string; fields: string[] }) =>
  ({ id: c.id, who: c.by ? "known" : "unknown", by: c.by ?? "", at: Date.parse(c.at), fields: listOf(c.fields) });

/** 409 naming who changed which subscriber, and what, since it was read. */
async function changedSince(q: Queryable, stale: Row[]): Promise<AppError> {
  const changes = await Promise.all(stale.map((r) => lastChange(q, r.id)));
  // The first change in words (a merge is refused for one as for many), the others counted; the answer's `changed` names them all.
  const [first] = changes;
  const told = { ...changeWords(first!), more: changes.length - 1 };
  return new AppError(409, "stale", problem(first!.fields.length ? "merge.stale" : "merge.staleNoFields", told), undefined, undefined, {
    changed: changes.map((c, i) => ({ ...c, current: serializeRecord(stale[i]!) })),
  });
}

export type MergeResult = { survivor: SubscriberDetail; merge_id: string };

/** Merges `merged_ids` into `survivor_id` in one transaction (administrators: the caller's guard). */
export async function mergeSubscribers(scope: BranchScope, input: MergeInput, actor: SessionUser): Promise<MergeResult> {
  const result = await transaction(async (q) => {
    const ids = [input.survivor_id, ...input.merged_ids].sort((a, b) => a - b);
    // Rows in id order, then their keys: the order edits and the trash lock them in.
    const rows = await q.query<Row>(sql`SELECT ${RECORD_COLUMNS}, s.sheet_id, s.branch_id AS own_branch_id FROM ${subscribersOf(scope)} s ${SUBSCRIBER_JOINS}
      WHERE s.id = ANY(${ids}::int[]) ORDER BY s.id FOR UPDATE OF s`);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const missing = ids.filter((id) => !byId.has(id));
    if (missing.length) throw new AppError(404, "not_found", problem("duplicates.notFound", { count: missing.length, ids: missing.join(", ") }));
    const stale = rows.filter((r) => !sameVersion(r.updated_at, input.versions.get(r.id)!));
    if (stale.length) throw await changedSince(q, stale);
    const survivor = byId.get(input.survivor_id)!;
    const before = columnsOf(survivor);
    const next = { ...before };
    for (const [field, from] of Object.entries(input.values) as [MergeField, number][]) {
      for (const column of COLUMNS_OF[field]) Object.assign(next, { [column]: columnsOf(byId.get(from)!)[column] });
    }
    const emails = [...rows.map((r) => r.email)];
    const mobiles = [...rows.map((r) => r.mobile)];
    await lockKeySets(q, emails, mobiles);
    const mergeId = newJobId();
    await trashSubscribers(q, input.merged_ids, { deletedBy: actor.id, mergedInto: survivor.id, decideAgain: false });
    const [written] = await writeColumns(q, survivor.id, next);
    const decided = await decideDuplicates(q, emails, mobiles);
    await q.query(sql`INSERT INTO subscriber_merges (id, survivor_id, merged_ids, before, "values", survivor_version, created_by)
      VALUES (${mergeId}, ${survivor.id}, ${input.merged_ids}::int[], ${JSON.stringify(before)}::jsonb, ${JSON.stringify(input.values)}::jsonb, ${written!.updated_at}, ${actor.id})`);
    const after = (await findSubscriber(scope, survivor.id, q))!;
    await q.audit({
      action: "subscriber.merge",
      actor,
      entity: "subscriber",
      entityId: survivor.id,
      before: serializeRecord(survivor),
      after: { ...serializeRecord(after), merge_id: mergeId, merged: input.merged_ids, values: input.values, duplicates_reevaluated: decided },
    });
    return { survivor: after, merge_id: mergeId };
  });
  forgetGroupCounts();
  return result;
}

type MergeRow = { id: string; survivor_id: number; merged_ids: number[]; before: Columns; survivor_version: Date; undone_at: Date | null };

/** The merges of this subscriber not undone, newest first (its record page offers the newest's undo). */
export async function mergesInto(q: Queryable, survivorId: number): Promise<{ id: string; merged_ids: number[]; created_at: Date }[]> {
  return q.query(sql`SELECT id, merged_ids, created_at FROM subscriber_merges WHERE survivor_id = ${survivorId} AND undone_at IS NULL ORDER BY created_at DESC LIMIT 5`);
}

/** Undoes a merge (administrators): the merged come back from the trash, the survivor gets its values from before. */
export async function undoMerge(scope: BranchScope, mergeId: string, actor: SessionUser): Promise<SubscriberDetail> {
  const result = await transaction(async (q) => {
    const [merge] = await q.query<MergeRow>(sql`SELECT id, survivor_id, merged_ids, before, survivor_version, undone_at FROM subscriber_merges WHERE id = ${mergeId} FOR UPDATE`);
    if (!merge) throw new AppError(404, "not_found", problem("merge.notFound"));
    const survivor = await findSubscriber(scope, merge.survivor_id, q, true);
    if (!survivor) throw new AppError(404, "not_found", problem("merge.notFound"));
    if (merge.undone_at) throw new AppError(409, "already_undone", problem("merge.alreadyUndone"));
    if (!sameVersion(survivor.updated_at, merge.survivor_version)) {
      const change = await lastChange(q, survivor.id);
      throw new AppError(409, "stale", problem(change.fields.length ? "merge.changedSince" : "merge.changedSinceNoFields", changeWords({ ...change, id: survivor.id })));
    }
    const trashed = await q.query<{ id: number; email: string; mobile: string }>(sql`
      SELECT id, email, mobile FROM subscriber_trash WHERE id = ANY(${merge.merged_ids}::int[]) AND merged_into = ${merge.survivor_id}`);
    const gone = merge.merged_ids.filter((id) => !trashed.some((t) => t.id === id));
    if (gone.length) throw new AppError(409, "not_in_trash", problem("merge.notInTrash", { count: gone.length, ids: gone.join(", ") }));
    const emails = [survivor.email, merge.before.email, ...trashed.map((t) => t.email)];
    const mobiles = [survivor.mobile, merge.before.mobile, ...trashed.map((t) => t.mobile)];
    await lockKeySets(q, emails, mobiles);
    await restoreSubscribers(q, merge.merged_ids);
    await writeColumns(q, survivor.id, merge.before);
    const decided = await decideDuplicates(q, emails, mobiles);
    await q.query(sql`UPDATE subscriber_merges SET undone_at = now(), undone_by = ${actor.id} WHERE id = ${merge.id}`);
    const after = (await findSubscriber(scope, survivor.id, q))!;
    await q.audit({
      action: "subscriber.merge_undo",
      actor,
      entity: "subscriber",
      entityId: survivor.id,
      before: serializeRecord(survivor),
      after: { ...serializeRecord(after), merge_id: merge.id, restored: merge.merged_ids, duplicates_reevaluated: decided },
    });
    return after;
  });
  forgetGroupCounts();
  return result;
}
