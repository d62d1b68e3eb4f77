import "server-only";
import type { SessionUser } from "@/lib/auth/permissions";
import { sql } from "@/lib/db/sql";
import { AppError } from "@/lib/errors";
import { problem } from "@/lib/i18n/problem";
import { TRASHED_BRANCHES, type BranchScope } from "@/lib/auth/scope";
import { isoDay } from "@/lib/format";
import { decideDuplicates, lockKeySets } from "./duplicates";
import { resolveReferences, sheetFor } from "./mutations";
import { findSubscriber, serializeRecord, type SubscriberDetail } from "./record";
import { trashSubscribers } from "@/lib/trash/subscribers";
import { transaction } from "@/lib/db/transaction";
import type { SubscriberInput, SubscriberValues } from "./schema";

// Editing and deleting a subscriber: creation's rules, duplicates decided again by the server,
// and an edit names the version it read, so a record changed since is a 409 rather than overwritten.

/** 409 with the record as it is now (`current`) and its fields as an edit starts from (`editable`). */
function staleRecord(now: SubscriberDetail): AppError {
  return new AppError(
    409,
    "stale",
    problem("subscribers.stale"),
    undefined,
    undefined,
    { current: serializeRecord(now), editable: editableFields(now) },
  );
}

/** The creation body of a record as it is: what an edit starts from (PATCH merges over it). */
export function editableFields(r: SubscriberDetail): SubscriberInput {
  return {
    first_name: r.first_name,
    last_name: r.last_name,
    email: r.email,
    mobile: r.mobile,
    branch_id: r.branch_id,
    country_id: r.country_id,
    travel_date: r.travel_date ? isoDay(r.travel_date) : null,
    sheet_name: r.sheet_name,
    subscription_status: r.subscription_status,
    is_mandatory: r.is_mandatory,
  };
}

/** Versions are compared to the millisecond (what an ISO 8601 answer carries). */
export const sameVersion = (a: Date, b: Date) => Math.floor(a.getTime()) === Math.floor(b.getTime());

/**
 * Without a branch in the edit, a link to a branch in the trash stays (the record shows no branch,
 * restoring the branch brings it back: docs/decisions/0031-trash.md).
 */
const KEEP_TRASHED_BRANCH = sql`(SELECT t.id FROM ${TRASHED_BRANCHES} t WHERE t.id = subscribers.branch_id)`;

/** An edit within the scope: a subscriber outside it is a 404, a branch outside it a 400 on branch_id. */
export async function updateSubscriber(scope: BranchScope, id: number, input: SubscriberValues, version: Date, actor: SessionUser): Promise<SubscriberDetail> {
  return transaction(async (q) => {
    const before = await findSubscriber(scope, id, q, true);
    if (!before) throw new AppError(404, "not_found", problem("subscribers.notFound"));
    if (!sameVersion(before.updated_at, version)) throw staleRecord(before);
    const { branch, country, mobile } = await resolveReferences(q, scope, input);
    const emails = [before.email, input.email];
    const mobiles = [before.mobile, mobile];
    await lockKeySets(q, emails, mobiles);
    const sheet = await sheetFor(q, input.sheet_name);
    // eslint-disable-next-line console/scoped-sources -- the row read and locked through subscribersOf(scope) above.
    await q.query(sql`UPDATE subscribers SET first_name = ${input.first_name}, last_name = ${input.last_name},
        email = ${input.email}, mobile = ${mobile}, country_id = ${country?.id ?? null},
        branch_id = ${branch ? sql`${branch.id}` : KEEP_TRASHED_BRANCH},
        sheet_id = ${sheet?.id ?? null}, travel_date = ${input.travel_date}::date,
        subscription_status = ${input.subscription_status}::"SubscriptionStatus", is_mandatory = ${input.is_mandatory},
        updated_at = now()
      WHERE id = ${id}`);
    // Its own flag and those of the others sharing its old or new keys.
    const reevaluated = (await decideDuplicates(q, emails, mobiles, id)).filter((other) => other !== id);
    const after = (await findSubscriber(scope, id, q))!;
    await q.audit({
      action: "subscriber.update",
      actor,
      entity: "subscriber",
      entityId: id,
      before: serializeRecord(before),
      after: { ...serializeRecord(after), ...(reevaluated.length ? { duplicates_reevaluated: reevaluated } : {}) },
    });
    return after;
  });
}

/** Moves a subscriber to the trash (admins: the caller's guard); the subscribers it matched are decided again. */
export async function deleteSubscriber(scope: BranchScope, id: number, actor: SessionUser): Promise<SubscriberDetail> {
  return transaction(async (q) => {
    const before = await findSubscriber(scope, id, q, true);
    if (!before) throw new AppError(404, "not_found", problem("subscribers.notFound"));
    await trashSubscribers(q, [id], { deletedBy: actor.id, decideAgain: false });
    const reevaluated = await decideDuplicates(q, [before.email], [before.mobile], id);
    await q.audit({
      action: "subscriber.delete",
      actor,
      entity: "subscriber",
      entityId: id,
      before: serializeRecord(before),
      ...(reevaluated.length ? { after: { duplicates_reevaluated: reevaluated } } : {}),
    });
    return before;
  });
}
