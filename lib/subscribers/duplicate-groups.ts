import "server-only";
import { isScoped, subscribersOf, type BranchScope } from "@/lib/auth/scope";
import { query, sql, type Statement } from "@/lib/db/sql";
import { offsetOf } from "@/lib/list/depth";
import { PER_PAGE, pagination, type Pagination } from "@/lib/list/pagination";
import { whereClause } from "@/lib/list/sql";
import type { DuplicateFilters, DuplicateRule } from "./duplicate-filters";
import { dismissed } from "./duplicates";
import { RECORD_COLUMNS, type SubscriberDetail } from "./record";
import { SUBSCRIBER_JOINS, subscriberFrom } from "./where";

// The duplicates review (docs/decisions/0032-duplicates-decided-in-one-place.md): groups of
// subscribers sharing an email or a mobile. Every pair the rule counts has its later member
// flagged, with the rule that flags it, so the groups are found from the flagged rows (a small
// share of the table, by the (is_duplicate, id) index) rather than by grouping every row.

/** At most this many members of one group are shown (the newest). */
export const MAX_GROUP_MEMBERS = 50;

export type DuplicateGroup = { rule: DuplicateRule; key: string; subscribers: SubscriberDetail[] };

const KEY: Record<DuplicateRule, (alias: Statement) => Statement> = {
  email: (a) => sql`lower(${a}.email)`,
  mobile: (a) => sql`${a}.mobile`,
};

/** The column that says this rule flags a subscriber (lib/subscribers/duplicates.ts keeps it). */
const FLAGGED_BY: Record<DuplicateRule, Statement> = {
  email: sql`t.duplicate_by_email`,
  mobile: sql`t.duplicate_by_mobile`,
};

/**
 * The groups of one rule as (rule, key, newest): keys of subscribers in the scope that this rule
 * flags, and, for a scoped reader, with an earlier subscriber in the scope sharing the key, the pair
 * not dismissed (the flag says there is one, maybe in another branch); `q` keeps the groups with a
 * member the list's search finds.
 */
function groupsOf(scope: BranchScope, rule: DuplicateRule, q: string | undefined): Statement {
  const key = KEY[rule];
  const from = subscribersOf(scope);
  const conditions = [sql`t.is_duplicate`, FLAGGED_BY[rule]];
  if (isScoped(scope)) {
    conditions.push(sql`EXISTS (SELECT 1 FROM ${from} e WHERE ${key(sql`e`)} = ${key(sql`t`)} AND e.id < t.id AND NOT ${dismissed(sql`e.id`, sql`t.id`)})`);
  }
  if (q) conditions.push(sql`${key(sql`t`)} IN (SELECT ${key(sql`s`)} ${subscriberFrom(scope, { q, is_duplicate: undefined, is_mandatory: undefined })})`);
  return sql`SELECT ${rule}::text AS rule, ${key(sql`t`)} AS key, max(t.id) AS newest FROM ${from} t ${whereClause(conditions)} GROUP BY 2`;
}

function groupsSql(scope: BranchScope, f: Pick<DuplicateFilters, "rule" | "q">): Statement {
  if (f.rule) return groupsOf(scope, f.rule, f.q);
  return sql`${groupsOf(scope, "email", f.q)} UNION ALL ${groupsOf(scope, "mobile", f.q)}`;
}

/** One page of groups (rule, key, and the total beside each) and the count alone: the statements a page runs (the bench's floor too). */
export function duplicateGroupsSql(scope: BranchScope, f: DuplicateFilters): { rows: Statement; count: Statement } {
  const groups = groupsSql(scope, f);
  return {
    rows: sql`SELECT g.rule, g.key, count(*) OVER ()::int AS total FROM (${groups}) g
       ORDER BY g.newest DESC, g.rule, g.key LIMIT ${PER_PAGE} OFFSET ${offsetOf(f.page)}`,
    count: sql`SELECT count(*)::int AS total FROM (${groups}) g`,
  };
}

/** How many groups there are (the subscriber list's link). */
export async function countDuplicateGroups(scope: BranchScope): Promise<number> {
  const [row] = await query<{ total: number }>(duplicateGroupsSql(scope, { page: 1, rule: undefined, q: undefined }).count);
  return row?.total ?? 0;
}

/** One page of groups, the group with the newest member first; each group's members newest first. */
export async function listDuplicateGroups(scope: BranchScope, f: DuplicateFilters): Promise<{ data: DuplicateGroup[]; pagination: Pagination }> {
  const statements = duplicateGroupsSql(scope, f);
  const page = await query<{ rule: DuplicateRule; key: string; total: number }>(statements.rows);
  // A page past the last has no row to carry the total.
  const total = page[0]?.total ?? (f.page > 1 ? ((await query<{ total: number }>(statements.count))[0]?.total ?? 0) : 0);
  return { data: await groupMembers(scope, page), pagination: pagination(total, f.page) };
}

/** The members of these groups in the scope, each with at least one member of its group it is not dismissed from. */
export async function groupMembers(scope: BranchScope, groups: readonly { rule: DuplicateRule; key: string }[]): Promise<DuplicateGroup[]> {
  if (!groups.length) return [];
  const membersOf = (rule: DuplicateRule) => {
    const keys = groups.filter((g) => g.rule === rule).map((g) => g.key);
    if (!keys.length) return Promise.resolve([] as (SubscriberDetail & { key: string })[]);
    const key = KEY[rule];
    return query<SubscriberDetail & { key: string }>(sql`
      SELECT ${RECORD_COLUMNS}, g.key FROM unnest(${keys}::text[]) AS g(key)
        CROSS JOIN LATERAL (SELECT s.id FROM ${subscribersOf(scope)} s WHERE ${key(sql`s`)} = g.key
                             ORDER BY s.id DESC LIMIT ${MAX_GROUP_MEMBERS}) m
        JOIN ${subscribersOf(scope)} s ON s.id = m.id ${SUBSCRIBER_JOINS}`);
  };
  const [byEmail, byMobile] = [await membersOf("email"), await membersOf("mobile")];
  const ids = [...new Set([...byEmail, ...byMobile].map((m) => m.id))];
  const pairs = ids.length > 1
    ? await query<{ low_id: number; high_id: number }>(sql`SELECT low_id, high_id FROM subscriber_dismissals WHERE low_id = ANY(${ids}::int[]) AND high_id = ANY(${ids}::int[])`)
    : [];
  const apart = new Set(pairs.map((p) => `${p.low_id}:${p.high_id}`));
  const together = (a: number, b: number) => !apart.has(a < b ? `${a}:${b}` : `${b}:${a}`);
  return groups.map((g) => {
    const all = (g.rule === "email" ? byEmail : byMobile).filter((m) => m.key === g.key);
    const subscribers = all
      .filter((m) => all.some((other) => other.id !== m.id && together(m.id, other.id)))
      .map((m) => {
        const { key, ...member } = m;
        void key; // the group's, not the subscriber's
        return member as SubscriberDetail;
      })
      .sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || b.id - a.id);
    return { rule: g.rule, key: g.key, subscribers };
  });
}
