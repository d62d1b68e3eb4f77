import "server-only";
import { cache } from "react";
import { isoDay } from "@/lib/format";
import { fewMatchesLimit, offsetOf, shallowWindow, windowFor, type PageWindow } from "@/lib/list/depth";
import { PER_PAGE, pagination, type Pagination } from "@/lib/list/pagination";
import { collated, ROOT_COLLATION, type SortCollation } from "@/lib/list/collation";
import { listCollation } from "@/lib/list/sort-language";
import { whereClause } from "@/lib/list/sql";
import type { SubscriberFilters, SubscriberFilterValues, SubscriptionStatus } from "./filters";
import type { SubscriberBody } from "./schema";
import { readsEveryRow, isFiltered, SUBSCRIBER_JOINS, subscriberConditions, subscriberFrom } from "./where";
import { isScoped, LIVE_BRANCHES, scopeCondition, subscribersOf, TRASHED_BRANCHES, type BranchScope } from "@/lib/auth/scope";
import { empty, query, sql, type Statement } from "@/lib/db/sql";

/** One row of the list: exactly the columns the table and the API show. */
export type SubscriberRow = {
  id: number;
  first_name: string;
  last_name: string;
  branch_name: string | null;
  country_name: string | null;
  email: string;
  mobile: string;
  travel_date: Date | null;
  sheet_name: string | null;
  subscription_status: SubscriptionStatus;
  is_duplicate: boolean;
  is_mandatory: boolean;
  created_at: Date;
};

/** A row of the list as pages read it: with its country's ISO code, for the country's name in the reader's language. */
export type ListedSubscriber = SubscriberRow & { country_code: string | null };

type SortColumn = SubscriberFilters["sort"]["column"];
type OwnColumn = Exclude<SortColumn, keyof typeof JOINED_SORTS>;

// Each served by a btree on (column, id) (the subscriber_indexes migration).
const OWN_SORTS = {
  id: sql`s.id`,
  email: sql`s.email`,
  mobile: sql`s.mobile`,
  travel_date: sql`s.travel_date`,
  subscription_status: sql`s.subscription_status`,
  is_duplicate: sql`s.is_duplicate`,
  is_mandatory: sql`s.is_mandatory`,
  created_at: sql`s.created_at`,
} as const satisfies Record<Exclude<OwnColumn, keyof typeof NAME_SORTS>, Statement>;

// Names sort in the reader's language, each collation served by a btree on (column COLLATE …, id)
// (the sort_first_name_* / sort_last_name_* migrations; docs/sorting-by-language.md).
const NAME_SORTS = { first_name: sql`s.first_name`, last_name: sql`s.last_name` } as const;

function ownSort(column: OwnColumn, collation: SortCollation): Statement {
  return column === "first_name" || column === "last_name" ? collated(NAME_SORTS[column], collation) : OWN_SORTS[column];
}

// Walked in the order of each name's index; unique names make (name, id) a total order (an ICU
// collation is deterministic: two different names never compare equal). `none`: a row without a
// name (a branch in the trash names none). `collates`: whether the name follows the reader's
// language, then as lower(name) in its collation (branches_name_root_idx/_ar_idx,
// countries_name_root_idx/_ar_idx); a sheet's name is a file's name and keeps the code-point order
// of sheets_name_key.
const JOINED_SORTS = {
  branch_name: {
    table: LIVE_BRANCHES,
    key: sql`branch_id`,
    name: sql`lower(j.name)`,
    none: sql`(s.branch_id IS NULL OR s.branch_id IN (SELECT id FROM ${TRASHED_BRANCHES} t))`,
    collates: true,
  },
  country_name: { table: sql`countries`, key: sql`country_id`, name: sql`j.name`, none: sql`s.country_id IS NULL`, collates: true },
  sheet: { table: sql`sheets`, key: sql`sheet_id`, name: sql`j.name`, none: sql`s.sheet_id IS NULL`, collates: false },
} as const;

/** A joined name as the list orders it: lower(name) in `collation` when that name follows the reader's language. */
const joinedName = (column: keyof typeof JOINED_SORTS, collation: SortCollation): Statement =>
  JOINED_SORTS[column].collates ? collated(sql`lower(j.name)`, collation) : JOINED_SORTS[column].name;

/**
 * The list's order over `s` with a joined name read per row, for a statement that reads every match (the export's):
 * its names in `collation`, as the list sorts them.
 */
export function subscriberOrderSql(column: SortColumn, desc: boolean, collation: SortCollation = ROOT_COLLATION): Statement {
  const idDir = desc ? sql`DESC` : sql`ASC`;
  if (column === "id") return sql`s.id ${idDir}`;
  const own = column as OwnColumn;
  const key =
    column === "branch_name" || column === "country_name" || column === "sheet"
      ? sql`(SELECT ${joinedName(column, collation)} FROM ${JOINED_SORTS[column].table} j WHERE j.id = s.${JOINED_SORTS[column].key})`
      : ownSort(own, collation);
  return sql`${key} ${desc ? sql`DESC NULLS FIRST` : sql`ASC NULLS LAST`}, s.id ${idDir}`;
}

/** The columns of a list row; the joins bring only the three names shown (and the country's code). */
const COLUMNS = sql`s.id, s.first_name, s.last_name, b.name AS branch_name,
  c.name AS country_name, c.code AS country_code, s.email, s.mobile, s.travel_date, sh.name AS sheet_name,
  s.subscription_status::text AS subscription_status, s.is_duplicate, s.is_mandatory, s.created_at`;
/**
 * One page's SQL and its total (docs/decisions/0003-raw-sql-for-list-queries.md): the page's ids first, then only its rows
 * joined; a name sort reads rows with and without a name apart, each limited to the page. `only`: ids already found.
 * `collation`: the reader's language's (lib/list/collation.ts) for the name sorts.
 */
export function subscriberListSql(
  scope: BranchScope,
  f: SubscriberFilters,
  window: PageWindow = { offset: offsetOf(f.page), limit: PER_PAGE, reverse: false },
  only?: readonly number[],
  collation: SortCollation = ROOT_COLLATION,
): { rows: Statement; count: Statement } {
  const conditions = only ? [sql`s.id = ANY(${[...only]}::int[])`] : subscriberConditions(scope, f);
  const from = subscribersOf(scope);
  const where = whereClause(conditions);
  const desc = (f.sort.direction === "desc") !== window.reverse;
  const dir = desc ? sql`DESC NULLS FIRST` : sql`ASC NULLS LAST`;
  const idDir = desc ? sql`DESC` : sql`ASC`;
  const offset = window.offset;
  const page = sql`LIMIT ${window.limit} OFFSET ${offset}`;
  const count = subscriberCountSql(scope, f);
  const column = f.sort.column;

  if (column === "branch_name" || column === "country_name" || column === "sheet") {
    const { table, key, none } = JOINED_SORTS[column];
    const name = joinedName(column, collation);
    // The union's column carries the name's collation; the outer orders name it anyway, so each ORDER BY reads alone.
    const sortName = (alias: Statement) => (JOINED_SORTS[column].collates ? collated(sql`${alias}.sort_name`, collation) : sql`${alias}.sort_name`);
    const upTo = offset + window.limit;
    const withName = sql`(SELECT s.id, ${name}::text AS sort_name FROM ${from} s
        JOIN ${table} j ON j.id = s.${key} ${where} ORDER BY ${name} ${idDir}, s.id ${idDir} LIMIT ${upTo})`;
    // Filtering by that same name already excludes the rows without one.
    const withoutName = f[column]
      ? empty
      : sql`UNION ALL (SELECT s.id, NULL::text AS sort_name FROM ${from} s
        ${whereClause([none, ...conditions])} ORDER BY s.id ${idDir} LIMIT ${upTo})`;
    const rows = sql`SELECT ${COLUMNS} FROM (SELECT u.id, u.sort_name FROM (${withName} ${withoutName}) u
        ORDER BY ${sortName(sql`u`)} ${dir}, u.id ${idDir} ${page}) p
      JOIN ${from} s ON s.id = p.id ${SUBSCRIBER_JOINS}
      ORDER BY ${sortName(sql`p`)} ${dir}, s.id ${idDir}`;
    return { rows, count };
  }
  const order = column === "id" ? sql`s.id ${idDir}` : sql`${ownSort(column, collation)} ${dir}, s.id ${idDir}`;
  const ids =
    seeksByDay(scope, f) && !only && offset >= DAY_SEEK_FROM
      ? daySeek(from, order, desc, offset, window.limit)
      : sql`SELECT s.id FROM ${from} s ${where} ORDER BY ${order} ${page}`;
  const rows = sql`SELECT ${COLUMNS} FROM (${ids}) p
      JOIN ${from} s ON s.id = p.id ${SUBSCRIBER_JOINS}
      ORDER BY ${order}`;
  return { rows, count };
}

/**
 * The list's total; with only status and flag filters, a sum of the trigger-kept counts: of every
 * subscriber, or of the scope's branches (docs/decisions/0005-trigger-kept-counts.md, 0028-branch-scope.md).
 */
export function subscriberCountSql(scope: BranchScope, f: SubscriberFilterValues): Statement {
  if (isFiltered(f, { beyondCounts: true })) return sql`SELECT count(*)::int AS total ${subscriberFrom(scope, f)}`;
  const c = [scopeCondition(scope, sql`t.branch_id`)];
  if (f.subscription_status) c.push(sql`t.subscription_status = ${f.subscription_status}::"SubscriptionStatus"`);
  if (f.is_duplicate !== undefined) c.push(sql`t.is_duplicate = ${f.is_duplicate}`);
  if (f.is_mandatory !== undefined) c.push(sql`t.is_mandatory = ${f.is_mandatory}`);
  const counts = isScoped(scope) ? sql`subscriber_branch_counts` : sql`subscriber_status_counts`;
  return sql`SELECT coalesce(sum(t.total), 0)::int AS total FROM ${counts} t ${whereClause(c)}`;
}

/** Unfiltered pages of the created_at order at least this many rows deep are found by day first. */
const DAY_SEEK_FROM = 1000;

/** A deep unfiltered created_at page's ids, entering the index at its day's edge found from the per-day counts. */
function daySeek(source: Statement, order: Statement, desc: boolean, offset: number, limit: number): Statement {
  const dir = desc ? sql`DESC` : sql`ASC`;
  const edge = desc ? sql`(c.day + 1)` : sql`c.day`;
  const day = sql`SELECT ${edge}::timestamp AT TIME ZONE 'UTC' AS edge, ${offset} - (c.through - c.total) AS skip
      FROM (SELECT day, total, sum(total) OVER (ORDER BY day ${dir}) AS through FROM subscriber_day_counts) c
      WHERE c.through > ${offset} ORDER BY c.day ${dir} LIMIT 1`;
  const from = desc ? sql`s.created_at < (SELECT edge FROM d)` : sql`s.created_at >= (SELECT edge FROM d)`;
  return sql`WITH d AS (${day}) SELECT s.id FROM ${source} s WHERE ${from}
      ORDER BY ${order} LIMIT ${limit} OFFSET (SELECT skip FROM d)`;
}

/** Whether a list is cheap whatever the data (trigger-kept total, shallow or by-day page), so it skips the per-user limit. */
export function isLightList(scope: BranchScope, f: SubscriberFilters): boolean {
  return !isFiltered(f, { beyondCounts: true }) && (offsetOf(f.page) <= LIGHT_SKIP || seeksByDay(scope, f));
}

/** Rows a light list may skip: a short index walk. */
const LIGHT_SKIP = 1_000;

/** Unfiltered, unscoped pages in created_at order are found by day (daySeek) at any depth. */
function seeksByDay(scope: BranchScope, f: SubscriberFilters): boolean {
  return f.sort.column === "created_at" && !isScoped(scope) && subscriberConditions(scope, f).length === 0;
}

/**
 * One page and its pagination, bounded (docs/decisions/0010-no-user-can-starve-the-others.md); a filter without trigrams first reads up to FEW_MATCHES ids.
 * Names sort in `collation`, by default the request's (lib/list/sort-language.ts): the page's reader's, the API caller's.
 */
export async function listSubscribers(
  scope: BranchScope,
  f: SubscriberFilters,
  collation?: SortCollation,
): Promise<{ data: ListedSubscriber[]; pagination: Pagination }> {
  const c = collation ?? (await listCollation());
  if (readsEveryRow(f)) {
    const probe = await query<{ id: number }>(sql`SELECT s.id ${subscriberFrom(scope, f)} LIMIT ${fewMatchesLimit() + 1}`);
    if (probe.length <= fewMatchesLimit()) {
      const ids = probe.map((r) => r.id);
      return { data: await pageRows(scope, f, c, ids.length, ids), pagination: pagination(ids.length, f.page) };
    }
  }
  const window = shallowWindow(f.page) ?? (seeksByDay(scope, f) ? { offset: offsetOf(f.page), limit: PER_PAGE, reverse: false } : null);
  if (window) {
    const statements = subscriberListSql(scope, f, window, undefined, c);
    const [data, total] = await Promise.all([query<ListedSubscriber>(statements.rows), countOnce(statements.count)]);
    return { data, pagination: pagination(total, f.page) };
  }
  const total = await countOnce(subscriberListSql(scope, f).count);
  return { data: await pageRows(scope, f, c, total), pagination: pagination(total, f.page) };
}

/** The rows of page `f.page` of `total` (read backwards near the end; none past it). */
async function pageRows(scope: BranchScope, f: SubscriberFilters, collation: SortCollation, total: number, only?: readonly number[]): Promise<ListedSubscriber[]> {
  const window = windowFor(f.page, total);
  if (!window) return [];
  const rows = await query<ListedSubscriber>(subscriberListSql(scope, f, window, only, collation).rows);
  return window.reverse ? rows.reverse() : rows;
}

/** The totals already asked for while rendering this request (React's cache(): one Map per request). */
const requestTotals = cache(() => new Map<string, Promise<number>>());

/** Runs a count once per request: the list and the export panel render in parallel and both need it. */
function countOnce(count: Statement): Promise<number> {
  const totals = requestTotals();
  const key = `${count.text}\0${JSON.stringify(count.values)}`;
  let total = totals.get(key);
  if (!total) {
    total = query<{ total: number }>(count).then(([row]) => row?.total ?? 0);
    totals.set(key, total);
    total.catch(() => totals.delete(key)); // a failure is not remembered
  }
  return total;
}

/** docs/API.md's subscriber record. */
export function serializeSubscriber(r: SubscriberRow): SubscriberBody {
  return {
    id: r.id,
    first_name: r.first_name,
    last_name: r.last_name,
    branch_name: r.branch_name,
    country_name: r.country_name,
    email: r.email,
    mobile: r.mobile,
    travel_date: r.travel_date ? isoDay(r.travel_date) : null,
    sheet: r.sheet_name ? { name: r.sheet_name } : null,
    subscription_status: r.subscription_status,
    is_duplicate: r.is_duplicate,
    is_mandatory: r.is_mandatory,
    created_at: r.created_at.toISOString(),
  };
}
export type SubscriberRecord = ReturnType<typeof serializeSubscriber>;
