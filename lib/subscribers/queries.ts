import "server-only";
import { cache } from "react";
import { isoDay } from "@/lib/format";
import { fewMatchesLimit, offsetOf, shallowWindow, windowFor, type PageWindow } from "@/lib/list/depth";
import { PER_PAGE, pagination, type Pagination } from "@/lib/list/pagination";
import { whereClause } from "@/lib/list/sql";
import type { SubscriberFilters, SubscriberFilterValues, SubscriptionStatus } from "./filters";
import { readsEveryRow, SUBSCRIBER_JOINS, subscriberConditions, subscriberWhere } from "./where";
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

type SortColumn = SubscriberFilters["sort"]["column"];
type OwnColumn = Exclude<SortColumn, keyof typeof JOINED_SORTS>;

// The subscriber's own sort columns, each served by a btree on (column, id); see the
// subscriber_indexes migration.
const OWN_SORTS = {
  id: sql`s.id`,
  first_name: sql`s.first_name`,
  last_name: sql`s.last_name`,
  email: sql`s.email`,
  mobile: sql`s.mobile`,
  travel_date: sql`s.travel_date`,
  subscription_status: sql`s.subscription_status`,
  is_duplicate: sql`s.is_duplicate`,
  is_mandatory: sql`s.is_mandatory`,
  created_at: sql`s.created_at`,
} as const satisfies Record<OwnColumn, Statement>;

// Sorting by a joined name, walked in the order of an existing unique index on that name
// (branches_name_lower_key: branch names sort regardless of case, as on /branches;
// countries_name_key; sheets_name_key). Unique names make (name, id) a total order.
const JOINED_SORTS = {
  branch_name: { table: sql`branches`, key: sql`branch_id`, name: sql`lower(j.name)` },
  country_name: { table: sql`countries`, key: sql`country_id`, name: sql`j.name` },
  sheet: { table: sql`sheets`, key: sql`sheet_id`, name: sql`j.name` },
} as const;

/** The columns of a list row; the joins bring only the three names shown. */
const COLUMNS = sql`s.id, s.first_name, s.last_name, b.name AS branch_name,
  c.name AS country_name, s.email, s.mobile, s.travel_date, sh.name AS sheet_name,
  s.subscription_status::text AS subscription_status, s.is_duplicate, s.is_mandatory, s.created_at`;
/**
 * The SQL of one list page and of its total; the benchmark sends these same statements straight
 * to PostgreSQL. Ascending puts empty values last, descending first (the exact reverse), and
 * `s.id` in the same direction makes the order total, so pages never overlap or skip rows.
 *
 * The page is found first by id alone (`p`, often an index-only scan, however deep the page),
 * and only its 10 rows are then read and joined to their names.
 *
 * A sort by branch, country or sheet name reads the rows that have one through an inner join
 * (PostgreSQL walks the names in the order of their unique index and each name's rows by
 * index) and the rows without one separately, each side limited to what the page needs; a
 * plain LEFT JOIN would sort every matching row instead.
 *
 * `window` is the page's place in the order (lib/list/depth.ts; by default the page number's,
 * from the start); a reversed window reads in the reverse order, and the rows come back in it.
 * `only` replaces the filters by the ids already found to match them.
 */
export function subscriberListSql(
  f: SubscriberFilters,
  window: PageWindow = { offset: offsetOf(f.page), limit: PER_PAGE, reverse: false },
  only?: readonly number[],
): { rows: Statement; count: Statement } {
  const filters = subscriberConditions(f);
  const conditions = only ? [sql`s.id = ANY(${[...only]}::int[])`] : filters;
  const where = whereClause(conditions);
  const desc = (f.sort.direction === "desc") !== window.reverse;
  const dir = desc ? sql`DESC NULLS FIRST` : sql`ASC NULLS LAST`;
  const idDir = desc ? sql`DESC` : sql`ASC`;
  const offset = window.offset;
  const page = sql`LIMIT ${window.limit} OFFSET ${offset}`;
  const count = subscriberCountSql(f);
  const column = f.sort.column;

  if (column === "branch_name" || column === "country_name" || column === "sheet") {
    const { table, key, name } = JOINED_SORTS[column];
    const upTo = offset + window.limit;
    const withName = sql`(SELECT s.id, ${name}::text AS sort_name FROM subscribers s
        JOIN ${table} j ON j.id = s.${key} ${where} ORDER BY ${name} ${idDir}, s.id ${idDir} LIMIT ${upTo})`;
    // Filtering by that same name already excludes the rows without one.
    const withoutName = f[column]
      ? empty
      : sql`UNION ALL (SELECT s.id, NULL::text AS sort_name FROM subscribers s
        ${whereClause([sql`s.${key} IS NULL`, ...conditions])} ORDER BY s.id ${idDir} LIMIT ${upTo})`;
    const rows = sql`SELECT ${COLUMNS} FROM (SELECT u.id, u.sort_name FROM (${withName} ${withoutName}) u
        ORDER BY u.sort_name ${dir}, u.id ${idDir} ${page}) p
      JOIN subscribers s ON s.id = p.id ${SUBSCRIBER_JOINS}
      ORDER BY p.sort_name ${dir}, s.id ${idDir}`;
    return { rows, count };
  }
  const order = column === "id" ? sql`s.id ${idDir}` : sql`${OWN_SORTS[column]} ${dir}, s.id ${idDir}`;
  const ids =
    column === "created_at" && !conditions.length && offset >= DAY_SEEK_FROM
      ? daySeek(order, desc, offset, window.limit)
      : sql`SELECT s.id FROM subscribers s ${where} ORDER BY ${order} ${page}`;
  const rows = sql`SELECT ${COLUMNS} FROM (${ids}) p
      JOIN subscribers s ON s.id = p.id ${SUBSCRIBER_JOINS}
      ORDER BY ${order}`;
  return { rows, count };
}

/**
 * How many subscribers match the filters: the list's total and the export request's count. With
 * no filter but status and flags, a sum over the (at most 16) counts kept by triggers
 * (subscriber_status_counts migration) instead of a count over up to a million index entries
 * (~0.3 ms instead of 30–100 ms at a million rows).
 */
export function subscriberCountSql(f: SubscriberFilterValues): Statement {
  const others = subscriberConditions({ ...f, subscription_status: undefined, is_duplicate: undefined, is_mandatory: undefined });
  if (others.length) return sql`SELECT count(*)::int AS total FROM subscribers s ${whereClause(subscriberConditions(f))}`;
  const c: Statement[] = [];
  if (f.subscription_status) c.push(sql`t.subscription_status = ${f.subscription_status}::"SubscriptionStatus"`);
  if (f.is_duplicate !== undefined) c.push(sql`t.is_duplicate = ${f.is_duplicate}`);
  if (f.is_mandatory !== undefined) c.push(sql`t.is_mandatory = ${f.is_mandatory}`);
  return sql`SELECT coalesce(sum(t.total), 0)::int AS total FROM subscriber_status_counts t ${whereClause(c)}`;
}

/** Unfiltered pages of the created_at order at least this many rows deep are found by day first. */
const DAY_SEEK_FROM = 1000;

/**
 * The ids of a deep unfiltered page in created_at order, without walking every row before it:
 * the per-day counts (subscriber_day_counts) give the UTC day the page starts in and how many
 * rows come before that day, so the (created_at, id) index is entered at that day's edge and
 * skips only that day's rows. Exact, as the counts are; past the last row, no day is found and
 * the page is empty.
 */
function daySeek(order: Statement, desc: boolean, offset: number, limit: number): Statement {
  const day = desc
    ? sql`SELECT (c.day + 1)::timestamp AT TIME ZONE 'UTC' AS edge, ${offset} - (c.through - c.total) AS skip
        FROM (SELECT day, total, sum(total) OVER (ORDER BY day DESC) AS through FROM subscriber_day_counts) c
        WHERE c.through > ${offset} ORDER BY c.day DESC LIMIT 1`
    : sql`SELECT c.day::timestamp AT TIME ZONE 'UTC' AS edge, ${offset} - (c.through - c.total) AS skip
        FROM (SELECT day, total, sum(total) OVER (ORDER BY day ASC) AS through FROM subscriber_day_counts) c
        WHERE c.through > ${offset} ORDER BY c.day ASC LIMIT 1`;
  const from = desc ? sql`s.created_at < (SELECT edge FROM d)` : sql`s.created_at >= (SELECT edge FROM d)`;
  return sql`WITH d AS (${day}) SELECT s.id FROM subscribers s WHERE ${from}
      ORDER BY ${order} LIMIT ${limit} OFFSET (SELECT skip FROM d)`;
}

/**
 * Whether a list costs the database next to nothing, whatever the data: its total comes from the
 * counts kept by triggers (no filter but status and flags) and its page is near the start (or
 * found by day). Such lists skip the per-user limit of heavy requests (lib/load/user-limit.ts):
 * the first page, a status filter and the deep pages by date stay as concurrent as they were.
 */
export function isLightList(f: SubscriberFilters): boolean {
  const others = subscriberConditions({ ...f, subscription_status: undefined, is_duplicate: undefined, is_mandatory: undefined });
  return others.length === 0 && (offsetOf(f.page) <= LIGHT_SKIP || seeksByDay(f));
}

/** Rows a light list may skip (an index walk of at most this many entries, ~10 ms). */
const LIGHT_SKIP = 1_000;

/** Unfiltered pages in created_at order are found by day (daySeek) at any depth. */
function seeksByDay(f: SubscriberFilters): boolean {
  return f.sort.column === "created_at" && subscriberConditions(f).length === 0;
}

/**
 * One page of subscribers and the pagination over all matches. What any page costs is bounded:
 * - a page in the first 100,000 rows (or an unfiltered one by creation date) is read with its
 *   total at the same time, as always;
 * - a deeper page waits for its total: past the end it is empty without being read, near the
 *   end it is read backwards, and in between it is a 400 (lib/list/depth.ts);
 * - a text filter without trigrams (one or two letters, emoji) reads the table once for up to
 *   FEW_MATCHES ids: when that is all of them, they are the total and the page is found among
 *   them (a walk of the sort order would visit every row to find ten rare ones: 600–800 ms on a
 *   million rows, against 90–250 ms for the one read). When there are more, matches are common
 *   and the walk finds its page early; the total is an exact count, one read of the table.
 */
export async function listSubscribers(f: SubscriberFilters): Promise<{ data: SubscriberRow[]; pagination: Pagination }> {
  if (readsEveryRow(f)) {
    const probe = await query<{ id: number }>(
      sql`SELECT s.id FROM subscribers s ${subscriberWhere(f)} LIMIT ${fewMatchesLimit() + 1}`,
    );
    if (probe.length <= fewMatchesLimit()) {
      const ids = probe.map((r) => r.id);
      return { data: await pageRows(f, ids.length, ids), pagination: pagination(ids.length, f.page) };
    }
  }
  const window = shallowWindow(f.page) ?? (seeksByDay(f) ? { offset: offsetOf(f.page), limit: PER_PAGE, reverse: false } : null);
  if (window) {
    const statements = subscriberListSql(f, window);
    const [data, total] = await Promise.all([query<SubscriberRow>(statements.rows), countOnce(statements.count)]);
    return { data, pagination: pagination(total, f.page) };
  }
  const total = await countOnce(subscriberListSql(f).count);
  return { data: await pageRows(f, total), pagination: pagination(total, f.page) };
}

/** The rows of page `f.page` of `total` (read backwards near the end; none past it). */
async function pageRows(f: SubscriberFilters, total: number, only?: readonly number[]): Promise<SubscriberRow[]> {
  const window = windowFor(f.page, total);
  if (!window) return [];
  const rows = await query<SubscriberRow>(subscriberListSql(f, window, only).rows);
  return window.reverse ? rows.reverse() : rows;
}

/** The totals already asked for while rendering this request (React's cache(): one Map per request). */
const requestTotals = cache(() => new Map<string, Promise<number>>());

/**
 * The total of a count statement, run once per request however many parts of the page need it:
 * /subscribers shows it in the list and in the export panel, which render in parallel. Outside a
 * render (route handlers, scripts) every call runs its statement.
 */
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
export function serializeSubscriber(r: SubscriberRow) {
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
