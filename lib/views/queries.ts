import "server-only";
import type { SessionUser } from "@/lib/auth/permissions";
import { canSeeView } from "@/lib/auth/permissions";
import { config } from "@/lib/config";
import { prisma } from "@/lib/db/client";
import { query, sql, type Statement } from "@/lib/db/sql";
import { notFound } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { listOf, problem } from "@/lib/i18n/problem";
import { problemsIn } from "@/lib/i18n/problems-in";
import { readPage } from "@/lib/list/depth";
import { pagination, type Pagination } from "@/lib/list/pagination";
import { checkViewColumns, checkViewQuery, isViewResource, type ViewResource } from "./resources";
import type { View } from "./schema";

export const viewSelect = {
  id: true,
  name: true,
  resource: true,
  query: true,
  columns: true,
  shared: true,
  owner_id: true,
  created_at: true,
  updated_at: true,
  owner: { select: { id: true, name: true } },
} as const;

export type ViewRow = Prisma.SavedViewGetPayload<{ select: typeof viewSelect }>;

const english = problemsIn("en");

/** A refusal's problems by field, one problem per field naming it (`field: its problems`); `_`, the view as a whole: its sentences alone. */
export function fieldProblems(problems: Record<string, string[]>): string[] {
  return Object.entries(problems).flatMap(([field, list]) => (field === "_" ? list : [problem("views.fieldRefused", { field, problems: listOf(list) })]));
}

/**
 * Why a stored view no longer opens (its list's filters changed since it was saved), or null, in
 * `words` (the API's: its Accept-Language, else English). Checked on every read, never rewritten:
 * the view is shown broken, not dropped.
 */
export function viewProblem(view: Pick<ViewRow, "resource" | "query" | "columns">, words: (text: string) => string = english): string | null {
  const problems = viewProblems(view);
  return problems && fieldProblems(problems).map(words).join(" ");
}

/** The same, as problem keys by field (lib/i18n/problem.ts), for a page to say in its reader's words; `_`: the view as a whole. */
export function viewProblems(view: Pick<ViewRow, "resource" | "query" | "columns">): Record<string, string[]> | null {
  if (!isViewResource(view.resource)) return { _: [problem("views.listGone", { resource: view.resource })] };
  const resource = view.resource;
  const query = checkViewQuery(resource, view.query);
  if (!query.ok) return query.problems;
  const columns = Array.isArray(view.columns) && view.columns.every((c) => typeof c === "string") ? view.columns : view.columns === null ? null : undefined;
  if (columns === undefined) return { columns: [problem("views.columnsNotAList")] };
  const checked = checkViewColumns(resource, columns);
  return checked.ok ? null : checked.problems;
}

/** docs/API.md's view, with `problem`: null, or why it no longer opens (in `words`: the API passes its answer's). */
export function serializeView(view: ViewRow, words?: (text: string) => string): View {
  return {
    id: view.id,
    name: view.name,
    resource: view.resource as ViewResource,
    query: view.query,
    columns: Array.isArray(view.columns) ? (view.columns as string[]) : null,
    shared: view.shared,
    owner: view.owner,
    created_at: view.created_at.toISOString(),
    updated_at: view.updated_at.toISOString(),
    problem: viewProblem(view, words),
  };
}

const byName = (order: "asc" | "desc") => [{ name: order }, { id: order }];

/**
 * One page of the caller's own views and the shared ones (of one list, or of all), by name, and the
 * pagination over them all (its cost bounded whatever the page: lib/list/depth.ts).
 */
export async function listViews(user: Pick<SessionUser, "id">, f: { resource?: ViewResource; page: number }): Promise<{ data: ViewRow[]; pagination: Pagination }> {
  const db = await prisma();
  const where = { ...(f.resource ? { resource: f.resource } : {}), OR: [{ owner_id: user.id }, { shared: true }] };
  const { data, total } = await readPage(
    f.page,
    (window) => db.savedView.findMany({ where, orderBy: byName(window.reverse ? "desc" : "asc"), skip: window.offset, take: window.limit, select: viewSelect }),
    () => db.savedView.count({ where }),
  );
  return { data, pagination: pagination(total, f.page) };
}

/** How many shared views of others the Views menu shows; the rest are on the views page. */
export const MENU_SHARED_VIEWS = 10;

/**
 * What the Views menu shows of a list: the caller's own views (VIEWS_PER_USER at most), then the first
 * MENU_SHARED_VIEWS shared views of others, each by name, in one statement on the driver (every list
 * page asks it: decision 23). The LIMITs keep a flood of shared views from growing every page.
 */
export async function menuViews(user: Pick<SessionUser, "id">, resource: ViewResource): Promise<ViewRow[]> {
  const pick = (where: Statement, limit: number) =>
    sql`(SELECT v.id, v.name, v.resource, v.query, v.columns, v.shared, v.owner_id, v.created_at, v.updated_at, o.name AS owner_name
      FROM saved_views v JOIN users o ON o.id = v.owner_id WHERE v.resource = ${resource} AND ${where} ORDER BY v.name, v.id LIMIT ${limit})`;
  const rows = await query<Omit<ViewRow, "owner"> & { owner_name: string }>(sql`SELECT * FROM (${pick(sql`v.owner_id = ${user.id}`, config().VIEWS_PER_USER)}
    UNION ALL ${pick(sql`v.shared AND v.owner_id <> ${user.id}`, MENU_SHARED_VIEWS)}) m ORDER BY m.owner_id <> ${user.id}, m.name, m.id`);
  return rows.map(({ owner_name, ...row }) => ({ ...row, owner: { id: row.owner_id, name: owner_name } }));
}

/** A shared view of others whose stored query is exactly `query`: the current view when the menu leaves it out. */
export async function sharedViewWithQuery(user: Pick<SessionUser, "id">, resource: ViewResource, query: string): Promise<ViewRow | null> {
  const db = await prisma();
  return db.savedView.findFirst({ where: { resource, shared: true, owner_id: { not: user.id }, query }, orderBy: byName("asc"), select: viewSelect });
}

/** One view the caller may see; someone else's private view is the same 404 as none. */
export async function getVisibleView(user: Pick<SessionUser, "id">, id: number): Promise<ViewRow> {
  const db = await prisma();
  const view = await db.savedView.findUnique({ where: { id }, select: viewSelect });
  if (!view || !canSeeView(user, view)) throw notFound("The view");
  return view;
}

/** The id of the user's default view of a list, when they may still see it (raw, as `menuViews`). */
export async function defaultViewId(user: Pick<SessionUser, "id">, resource: ViewResource): Promise<number | null> {
  const [view] = await query<{ id: number; owner_id: number; shared: boolean }>(sql`SELECT v.id, v.owner_id, v.shared
    FROM saved_view_defaults d JOIN saved_views v ON v.id = d.view_id WHERE d.user_id = ${user.id} AND d.resource = ${resource}`);
  return view && canSeeView(user, view) ? view.id : null;
}
