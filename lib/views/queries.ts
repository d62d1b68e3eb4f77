import "server-only";
import type { SessionUser } from "@/lib/auth/permissions";
import { canSeeView } from "@/lib/auth/permissions";
import { prisma } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
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

/** The caller's own views and the shared ones (of one list, or of all), by name. */
export async function listViews(user: Pick<SessionUser, "id">, resource?: ViewResource): Promise<ViewRow[]> {
  const db = await prisma();
  return db.savedView.findMany({
    where: { ...(resource ? { resource } : {}), OR: [{ owner_id: user.id }, { shared: true }] },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    select: viewSelect,
  });
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
