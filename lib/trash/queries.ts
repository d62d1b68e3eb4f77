import "server-only";
import { z } from "zod";
import { LIVE_BRANCHES, TRASHED_BRANCHES } from "@/lib/auth/scope";
import { config } from "@/lib/config";
import { join, query, sql, type Statement } from "@/lib/db/sql";
import { readDirection, readPage, type PageWindow } from "@/lib/list/depth";
import { pagination, type Pagination } from "@/lib/list/pagination";
import { endOfDayExclusive, startOfDay } from "@/lib/list/params";
import { contains, direction, whereClause } from "@/lib/list/sql";
import { SUBSCRIPTION_STATUSES } from "@/lib/subscribers/filters";
import { serializeSubscriber, type SubscriberRow } from "@/lib/subscribers/queries";
import type { TrashFilters } from "./filters";

// The trash's lists (admins only: the caller's guard), newest deletion first. Subscribers are read
// from subscriber_trash (their branch's name only while that branch is not in the trash itself),
// branches from TRASHED_BRANCHES.

type Deleter = { id: number; name: string } | null;

export type TrashedSubscriber = SubscriberRow & { deleted_at: Date; deleted_by: Deleter; merged_into: number | null };

/** A row as SQL gives it: the status is the enum as text until it is checked. */
type TrashedSubscriberRow = Omit<TrashedSubscriber, "subscription_status"> & { subscription_status: string };

const statusSchema = z.enum(SUBSCRIPTION_STATUSES);

/** The row with its status checked against the statuses the code knows (a new enum value fails here, not in a client). */
const checkedRow = ({ subscription_status, ...row }: TrashedSubscriberRow): TrashedSubscriber => ({ ...row, subscription_status: statusSchema.parse(subscription_status) });

export type TrashedBranch = { id: number; name: string; created_at: Date; updated_at: Date; deleted_at: Date; deleted_by: Deleter };

const DELETER = sql`CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object('id', u.id, 'name', u.name) END AS deleted_by`;

/** A list's filters, or one record by `id`. */
type Query = Partial<Omit<TrashFilters, "page" | "sort">> & Pick<TrashFilters, "sort"> & { id?: number };

function conditions(f: Query, alias: "t" | "b", names: Statement[]): Statement[] {
  const tz = config().CONSOLE_TIME_ZONE;
  const c: Statement[] = [];
  const at = alias === "b" ? sql`b.deleted_at` : sql`t.deleted_at`;
  if (f.id !== undefined) c.push(alias === "b" ? sql`b.id = ${f.id}` : sql`t.id = ${f.id}`);
  const name = f.name;
  if (name) c.push(sql`(${join(names.map((column) => contains(column, name)), " OR ")})`);
  if (f.deleted_from) c.push(sql`${at} >= ${startOfDay(f.deleted_from, tz)}`);
  if (f.deleted_to) c.push(sql`${at} < ${endOfDayExclusive(f.deleted_to, tz)}`);
  return c;
}

export function trashedSubscribersSql(f: Query, window: PageWindow) {
  const where = whereClause(conditions(f, "t", [sql`t.first_name`, sql`t.last_name`, sql`t.email`]));
  const dir = direction(readDirection(f.sort.direction, window));
  const order = f.sort.column === "id" ? sql`t.id ${dir}` : sql`t.deleted_at ${dir}, t.id ${dir}`;
  return {
    rows: sql`SELECT t.id, t.first_name, t.last_name, b.name AS branch_name, c.name AS country_name, t.email, t.mobile, t.travel_date,
        sh.name AS sheet_name, t.subscription_status::text AS subscription_status, t.is_duplicate, t.is_mandatory, t.created_at,
        t.deleted_at, ${DELETER}, t.merged_into
      FROM (SELECT t.* FROM subscriber_trash t ${where} ORDER BY ${order} LIMIT ${window.limit} OFFSET ${window.offset}) t
      LEFT JOIN ${LIVE_BRANCHES} b ON b.id = t.branch_id
      LEFT JOIN countries c ON c.id = t.country_id
      LEFT JOIN sheets sh ON sh.id = t.sheet_id
      LEFT JOIN users u ON u.id = t.deleted_by
      ORDER BY ${order}`,
    count: sql`SELECT count(*)::int AS total FROM subscriber_trash t ${where}`,
  };
}

export function trashedBranchesSql(f: Query, window: PageWindow) {
  const where = whereClause(conditions(f, "b", [sql`b.name`]));
  const dir = direction(readDirection(f.sort.direction, window));
  const order = f.sort.column === "id" ? sql`b.id ${dir}` : sql`b.deleted_at ${dir}, b.id ${dir}`;
  return {
    rows: sql`SELECT b.id, b.name, b.created_at, b.updated_at, b.deleted_at, ${DELETER}
      FROM ${TRASHED_BRANCHES} b LEFT JOIN users u ON u.id = b.deleted_by ${where}
      ORDER BY ${order} LIMIT ${window.limit} OFFSET ${window.offset}`,
    count: sql`SELECT count(*)::int AS total FROM ${TRASHED_BRANCHES} b ${where}`,
  };
}

export async function listTrashedSubscribers(f: TrashFilters): Promise<{ data: TrashedSubscriber[]; pagination: Pagination }> {
  const { data, total } = await readPage(
    f.page,
    async (window) => {
      const rows = (await query<TrashedSubscriberRow>(trashedSubscribersSql(f, window).rows)).map(checkedRow);
      return window.reverse ? rows.reverse() : rows;
    },
    async () => (await query<{ total: number }>(trashedSubscribersSql(f, { offset: 0, limit: 0, reverse: false }).count))[0]?.total ?? 0,
  );
  return { data, pagination: pagination(total, f.page) };
}

export async function listTrashedBranches(f: TrashFilters): Promise<{ data: TrashedBranch[]; pagination: Pagination }> {
  const { data, total } = await readPage(
    f.page,
    async (window) => {
      const rows = await query<TrashedBranch>(trashedBranchesSql(f, window).rows);
      return window.reverse ? rows.reverse() : rows;
    },
    async () => (await query<{ total: number }>(trashedBranchesSql(f, { offset: 0, limit: 0, reverse: false }).count))[0]?.total ?? 0,
  );
  return { data, pagination: pagination(total, f.page) };
}

/** One trashed subscriber or branch (for the confirmation's name and the API's answers), or null. */
export async function findTrashed(kind: "subscribers", id: number): Promise<TrashedSubscriber | null>;
export async function findTrashed(kind: "branches", id: number): Promise<TrashedBranch | null>;
export async function findTrashed(kind: "subscribers" | "branches", id: number): Promise<TrashedSubscriber | TrashedBranch | null> {
  const f = { sort: { column: "id", direction: "asc" }, id } as const;
  const window = { offset: 0, limit: 1, reverse: false };
  if (kind === "branches") return (await query<TrashedBranch>(trashedBranchesSql(f, window).rows))[0] ?? null;
  const [row] = await query<TrashedSubscriberRow>(trashedSubscribersSql(f, window).rows);
  return row ? checkedRow(row) : null;
}

const deleterBody = (d: Deleter) => (d ? { id: d.id, name: d.name } : null);

/** docs/API.md's trashed subscriber: the subscriber record, plus deleted_at, deleted_by and merged_into. */
export function serializeTrashedSubscriber({ deleted_at, deleted_by, merged_into, ...subscriber }: TrashedSubscriber) {
  return { ...serializeSubscriber(subscriber), deleted_at: deleted_at.toISOString(), deleted_by: deleterBody(deleted_by), merged_into };
}

export function serializeTrashedBranch(b: TrashedBranch) {
  return {
    id: b.id,
    name: b.name,
    created_at: b.created_at.toISOString(),
    updated_at: b.updated_at.toISOString(),
    deleted_at: b.deleted_at.toISOString(),
    deleted_by: deleterBody(b.deleted_by),
  };
}
