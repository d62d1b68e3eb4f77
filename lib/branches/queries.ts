import "server-only";
import { subscribersOf, type BranchScope } from "@/lib/auth/scope";
import { AppError } from "@/lib/errors";
import { problem } from "@/lib/i18n/problem";
import { offsetOf, readDirection, readPage, type PageWindow } from "@/lib/list/depth";
import { PER_PAGE, pagination, type Pagination } from "@/lib/list/pagination";
import { collated, ROOT_COLLATION, type SortCollation } from "@/lib/list/collation";
import { listCollation } from "@/lib/list/sort-language";
import { direction } from "@/lib/list/sql";
import type { BranchFilters } from "./filters";
import type { BranchBody } from "./schema";
import { branchFrom } from "./where";
import { query, sql } from "@/lib/db/sql";

/** A branch gone, never there or outside the scope: one 404. */
export const branchNotFound = () => new AppError(404, "not_found", problem("branches.notFound"));

export type BranchRow = { id: number; name: string; created_at: Date; updated_at: Date };

/** The list's orders; the name's in the reader's language, served by branches_name_root_idx / branches_name_ar_idx. */
const sortSql = (column: BranchFilters["sort"]["column"], collation: SortCollation) =>
  column === "name" ? collated(sql`lower(b.name)`, collation) : { id: sql`b.id`, created_at: sql`b.created_at`, updated_at: sql`b.updated_at` }[column];


/**
 * The SQL of one list page; the benchmark sends the same statements straight to PostgreSQL.
 * `window`: the page's place in the order (lib/list/depth.ts), by default the page number's; `collation`: the name sort's.
 */
export function branchListSql(
  scope: BranchScope,
  f: BranchFilters,
  window: PageWindow = { offset: offsetOf(f.page), limit: PER_PAGE, reverse: false },
  collation: SortCollation = ROOT_COLLATION,
) {
  const from = branchFrom(scope, f);
  const dir = direction(readDirection(f.sort.direction, window));
  return {
    rows: sql`SELECT b.id, b.name, b.created_at, b.updated_at ${from}
      ORDER BY ${sortSql(f.sort.column, collation)} ${dir}, b.id ${dir}
      LIMIT ${window.limit} OFFSET ${window.offset}`,
    count: sql`SELECT count(*)::int AS total ${from}`,
  };
}

/** One page of branches and the pagination over all matches (its cost bounded: lib/list/depth.ts); names sort in `collation`, by default the request's. */
export async function listBranches(scope: BranchScope, f: BranchFilters, collation?: SortCollation): Promise<{ data: BranchRow[]; pagination: Pagination }> {
  const c = collation ?? (await listCollation());
  const { data, total } = await readPage(
    f.page,
    (window) => query<BranchRow>(branchListSql(scope, f, window, c).rows),
    async () => (await query<{ total: number }>(branchListSql(scope, f).count))[0]?.total ?? 0,
  );
  return { data, pagination: pagination(total, f.page) };
}

/** The branch; one outside the scope is the same 404 as an unknown id. */
export async function getBranch(scope: BranchScope, id: number): Promise<BranchRow> {
  const [branch] = await query<BranchRow>(sql`SELECT b.id, b.name, b.created_at, b.updated_at ${branchFrom(scope, { id })}`);
  if (!branch) throw branchNotFound();
  return branch;
}

/**
 * How many subscribers of the scope a branch has, for the delete confirmation: asked when the dialog opens,
 * not for every branch on every view (an index-only count on subscribers (branch_id, …)).
 */
export async function branchSubscriberCount(scope: BranchScope, id: number): Promise<number> {
  const [row] = await query<{ n: number }>(sql`SELECT count(*)::int AS n FROM ${subscribersOf(scope)} s WHERE s.branch_id = ${id}`);
  return row?.n ?? 0;
}

export function serializeBranch(b: BranchRow): BranchBody {
  return { id: b.id, name: b.name, created_at: b.created_at.toISOString(), updated_at: b.updated_at.toISOString() };
}
