import "server-only";
import type { AuditAction } from "@/lib/audit/actions";
import { join, query, sql, type Queryable, type Statement } from "@/lib/db/sql";
import { AppError } from "@/lib/errors";
import { problem } from "@/lib/i18n/problem";
import { emailKey, subscriberRecordSchema, type SubscriberRecordBody } from "./schema";
import { dismissed } from "./duplicates";
export type { SubscriberRecordBody };
import { serializeSubscriber, type SubscriberRow } from "./queries";
import { SUBSCRIBER_JOINS } from "./where";
import { whereClause } from "@/lib/list/sql";
import { branchesOf, EVERY_BRANCH, isScoped, scopeCondition, subscribersOf, type BranchScope } from "@/lib/auth/scope";

// One subscriber as its page and record API show it: fields, references, `updated_at` (the
// version an edit names), the earlier subscribers it duplicates, and its history.

export type SubscriberDetail = SubscriberRow & {
  branch_id: number | null;
  country_id: number | null;
  /** The version an edit must name: the last change, or the creation when never changed. */
  updated_at: Date;
};

/** The columns of a record (over `subscribers s` with SUBSCRIBER_JOINS). */
export const RECORD_COLUMNS = sql`s.id, s.first_name, s.last_name, b.name AS branch_name, c.name AS country_name,
  s.email, s.mobile, s.travel_date, sh.name AS sheet_name, s.subscription_status::text AS subscription_status,
  s.is_duplicate, s.is_mandatory, s.created_at, coalesce(s.updated_at, s.created_at) AS updated_at,
  b.id AS branch_id, s.country_id`;

/**
 * The subscriber, read with `db` (a transaction's, to read under its lock), or null; one outside the
 * scope is null as an unknown id is, by the same one-row index read.
 */
export async function findSubscriber(scope: BranchScope, id: number, db: Queryable = { query }, lock = false): Promise<SubscriberDetail | null> {
  const [row] = await db.query<SubscriberDetail>(
    sql`SELECT ${RECORD_COLUMNS} FROM ${subscribersOf(scope)} s ${SUBSCRIBER_JOINS} WHERE s.id = ${id} ${lock ? sql`FOR UPDATE OF s` : sql``}`);
  return row ?? null;
}

export async function getSubscriber(scope: BranchScope, id: number): Promise<SubscriberDetail> {
  const row = await findSubscriber(scope, id);
  if (!row) throw new AppError(404, "not_found", problem("subscribers.notFound"));
  return row;
}

/** The record answer of docs/API.md: the list's subscriber plus `updated_at`. */
export function serializeRecord(r: SubscriberDetail): SubscriberRecordBody {
  return { ...serializeSubscriber(r), updated_at: r.updated_at.toISOString() };
}

type EarlierMatch = { id: number; first_name: string; last_name: string; created_at: Date; email: boolean; mobile: boolean };

/**
 * The earlier subscribers this one duplicates, oldest first, at most `limit`, in the scope; `elsewhere`:
 * whether it also matches some outside the scope (told, never shown).
 */
export async function earlierMatches(
  scope: BranchScope,
  r: Pick<SubscriberDetail, "id" | "email" | "mobile">,
  limit = 10,
): Promise<{ matches: EarlierMatch[]; elsewhere: boolean }> {
  // The matches the rule counts (lib/subscribers/duplicates.ts): pairs marked "not duplicates" left out.
  const notDismissed = sql`NOT ${dismissed(sql`s.id`, sql`${r.id}::int`)}`;
  const earlier = (from: Statement, where: Statement[] = []) => sql`
       (SELECT s.id FROM ${from} s ${whereClause([sql`lower(s.email) = ${emailKey(r.email)}`, sql`s.id < ${r.id}`, notDismissed, ...where])} ORDER BY s.id LIMIT ${limit})
       UNION
       (SELECT s.id FROM ${from} s ${whereClause([sql`s.mobile = ${r.mobile}`, sql`s.id < ${r.id}`, notDismissed, ...where])} ORDER BY s.id LIMIT ${limit})`;
  const matches = await query<EarlierMatch>(sql`
    SELECT s.id, s.first_name, s.last_name, s.created_at,
           lower(s.email) = ${emailKey(r.email)} AS email, s.mobile = ${r.mobile} AS mobile
      FROM ${subscribersOf(scope)} s
     WHERE s.id IN (${earlier(subscribersOf(scope))})
     ORDER BY s.id LIMIT ${limit}`);
  const inside = scopeCondition(scope, sql`s.branch_id`);
  if (!inside) return { matches, elsewhere: false };
  const [outside] = await query<{ n: number }>(sql`SELECT count(*)::int AS n FROM (${earlier(subscribersOf(EVERY_BRANCH), [sql`NOT coalesce(${inside}, false)`])}) e`);
  return { matches, elsewhere: (outside?.n ?? 0) > 0 };
}

/** Events about several subscribers at once, naming them in `after.ids`. */
const MANY_SUBSCRIBER_ACTIONS: AuditAction[] = ["subscriber.bulk_change", "subscriber.not_duplicates", "subscriber.duplicates_again"];

export type HistoryEntry = {
  id: string;
  at: Date;
  action: string;
  actor_email: string | null;
  /** The bulk change an entry of one is (its page links it). */
  entity: string | null;
  entity_id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};

/** What a history shows of an audit snapshot: the record's own fields (not, say, the ids an edit decided again). */
const RECORD_FIELDS = new Set(Object.keys(subscriberRecordSchema.shape));

/** What a merge's event (or its undo's) names besides the fields: the records and whose value each field took. */
const MERGE_FIELDS = new Set(["merged", "restored", "values", "merge_id"]);

/** Said in a scoped reader's history in place of a branch that is not theirs. */
export const ANOTHER_BRANCH = "another branch";

function shownSnapshot(snapshot: Record<string, unknown> | null, ownBranch: (name: string) => boolean): Record<string, unknown> | null {
  if (!snapshot) return null;
  const shown: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(snapshot)) {
    if (!RECORD_FIELDS.has(key) && !MERGE_FIELDS.has(key)) continue;
    shown[key] = key === "branch_name" && typeof value === "string" && !ownBranch(value) ? ANOTHER_BRANCH : value;
  }
  return shown;
}

/**
 * The subscriber's history, newest first: its own events, selections that changed it, and bulk
 * changes by filters that changed it (their event names no ids: the rows they changed are in
 * bulk_change_rows while they can be undone; docs/decisions/0014-bulk-changes-in-the-audit-log.md).
 * A scoped reader sees the record's fields only, and "another branch" for a branch not theirs
 * (a subscriber moved in from one, say): the history names no branch the list would not.
 */
export async function subscriberHistory(scope: BranchScope, id: number, limit = 50): Promise<HistoryEntry[]> {
  // Nothing for a subscriber outside the scope, as for an unknown one.
  if (!(await findSubscriber(scope, id))) return [];
  const [entries, own] = await Promise.all([
    query<HistoryEntry>(sql`
      (SELECT id::text, at, action, actor_email, entity, entity_id, before, after FROM audit_events
        WHERE entity = 'subscriber' AND entity_id = ${String(id)} ORDER BY at DESC LIMIT ${limit})
      UNION ALL
      (SELECT id::text, at, action, actor_email, entity, entity_id, before, after FROM audit_events
        WHERE action IN (${join(MANY_SUBSCRIBER_ACTIONS)}) AND after -> 'ids' @> to_jsonb(${id}::int) ORDER BY at DESC LIMIT ${limit})
      UNION ALL
      (SELECT a.id::text, a.at, a.action, a.actor_email, a.entity, a.entity_id, a.before, a.after
         FROM bulk_change_rows r JOIN audit_events a ON a.entity = 'bulk_change' AND a.entity_id = r.bulk_change_id
        WHERE r.subscriber_id = ${id} AND a.action = 'subscriber.bulk_change' AND NOT (a.after ? 'ids') ORDER BY a.at DESC LIMIT ${limit})
      ORDER BY at DESC LIMIT ${limit}`),
    isScoped(scope) ? query<{ name: string }>(sql`SELECT lower(b.name) AS name FROM ${branchesOf(scope)} b`) : null,
  ]);
  const names = own && new Set(own.map((b) => b.name));
  const ownBranch = (name: string) => names === null || names.has(name.toLowerCase());
  return entries.map((e) =>
    e.action === "subscriber.bulk_change"
      ? { ...e, before: null, after: { change: e.after?.change ?? {} } }
      : MANY_SUBSCRIBER_ACTIONS.includes(e.action as AuditAction)
        ? { ...e, before: null, after: null }
        : { ...e, before: shownSnapshot(e.before, ownBranch), after: shownSnapshot(e.after, ownBranch) },
  );
}

/** The fields that differ between two record answers (for the history and the conflict view). */
export function changedFields(before: Record<string, unknown> | null, after: Record<string, unknown> | null): string[] {
  if (!before || !after) return [];
  const ignore = new Set(["updated_at", "created_at", "id"]);
  return Object.keys({ ...before, ...after }).filter((k) => !ignore.has(k) && JSON.stringify(before[k]) !== JSON.stringify(after[k]));
}
