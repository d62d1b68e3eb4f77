import "server-only";
import type { SessionUser } from "@/lib/auth/permissions";
import { canSeeView } from "@/lib/auth/permissions";
import { config } from "@/lib/config";
import { prisma } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
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

export type ViewRow = {
  id: number;
  name: string;
  resource: string;
  query: string;
  columns: unknown;
  shared: boolean;
  owner_id: number;
  created_at: Date;
  updated_at: Date;
  owner: { id: number; name: string };
};

/**
 * Why a stored view no longer opens (its list's filters changed since it was saved), or null.
 * Checked on every read, never rewritten: the view is shown broken, not dropped.
 */
export function viewProblem(view: Pick<ViewRow, "resource" | "query" | "columns">): string | null {
  if (!isViewResource(view.resource)) return `The list "${view.resource}" no longer has saved views.`;
  const resource = view.resource;
  const query = checkViewQuery(resource, view.query);
  if (!query.ok) return query.message;
  const columns = Array.isArray(view.columns) && view.columns.every((c) => typeof c === "string") ? view.columns : view.columns === null ? null : undefined;
  if (columns === undefined) return "columns: not a list of columns.";
  const checked = checkViewColumns(resource, columns);
  return checked.ok ? null : checked.message;
}

/** docs/API.md's view, with `problem`: null, or why it no longer opens. */
export function serializeView(view: ViewRow): View {
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
    problem: viewProblem(view),
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
 * What the Views menu shows of a list: the caller's own views (VIEWS_PER_USER at most, as many as
 * they may keep) and the first MENU_SHARED_VIEWS shared views of others, by name. Read with LIMITs,
 * so a flood of shared views does not grow every user's list pages.
 */
export async function menuViews(user: Pick<SessionUser, "id">, resource: ViewResource): Promise<{ own: ViewRow[]; shared: ViewRow[] }> {
  const db = await prisma();
  const [own, shared] = await Promise.all([
    db.savedView.findMany({ where: { resource, owner_id: user.id }, orderBy: byName("asc"), take: config().VIEWS_PER_USER, select: viewSelect }),
    db.savedView.findMany({ where: { resource, shared: true, owner_id: { not: user.id } }, orderBy: byName("asc"), take: MENU_SHARED_VIEWS, select: viewSelect }),
  ]);
  return { own, shared };
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

/** The id of the user's default view of a list, when they may still see it. */
export async function defaultViewId(user: Pick<SessionUser, "id">, resource: ViewResource): Promise<number | null> {
  const db = await prisma();
  const row = await db.savedViewDefault.findUnique({
    where: { user_id_resource: { user_id: user.id, resource } },
    select: { view: { select: { id: true, owner_id: true, shared: true } } },
  });
  return row && canSeeView(user, row.view) ? row.view.id : null;
}
