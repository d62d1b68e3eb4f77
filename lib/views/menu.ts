import "server-only";
import { cache } from "react";
import { getTranslations } from "next-intl/server";
import type { SessionUser } from "@/lib/auth/permissions";
import { canChangeView } from "@/lib/auth/permissions";
import type { RawParams } from "@/lib/list/params";
import { FIT_COLUMNS, TABLE_COLUMNS, tableSettings } from "@/lib/subscribers/columns";
import { SUBSCRIBER_FIELDS } from "@/lib/subscribers/filters";
import { allHref, checkViewQuery, filtersKey, VIEW_LISTS, viewHref, type ViewResource } from "./resources";
import type { Pagination } from "@/lib/list/pagination";
import { shownViewName } from "@/lib/people/erased-words";
import { defaultViewId, getVisibleView, listViews, menuViews, sharedViewWithQuery, viewProblem, viewProblems, type ViewRow } from "./queries";

// What a list page needs of saved views: the menu's entries, the view the address is, and the
// default view a bare list opens with (docs/decisions/0027-saved-views.md).

export type MenuView = {
  id: number;
  name: string;
  /** Its query as stored. */
  query: string;
  /** The list's address that opens it; null when it no longer opens (see `problem`). */
  href: string | null;
  /** Why it no longer opens, in English (as the API says it), or null. */
  problem: string | null;
  /** The same as problem keys by field, for the page's reader (null when it opens). */
  problems: Record<string, string[]> | null;
  shared: boolean;
  owner: string;
  own: boolean;
  changeable: boolean;
  isDefault: boolean;
};

export type ViewsState = {
  resource: ViewResource;
  /** The user's own views, then at most MENU_SHARED_VIEWS shared ones of others; `/views` has them all. */
  views: MenuView[];
  /** The view whose filters and sort equal the address's: own views first, then by name. */
  current: MenuView | null;
  /** The address's filters and sort as a view would keep them; null when the list refuses them. */
  query: string | null;
  /** The columns shown now (the address's `columns`, else the user's own choice); null: the list has no choice. */
  columns: string[] | null;
  allHref: string;
  /** The address has no filter and no sort: the whole list (`view=all`, or a bare address that opened no default view). */
  isAll: boolean;
  /** A bare address of the list opens a default view: links that leave no filter say `view=all`. */
  hasDefault: boolean;
};

/** The user's default view of a list, read once per request: a bare list address asks it twice (the redirect, then the menu). */
const defaultOf = cache(defaultViewId);

const asColumns = (value: unknown) => (Array.isArray(value) ? (value as string[]) : null);

/** The columns the subscriber table shows for this address and user (one rule for the page and the menu). */
export function shownColumns(user: SessionUser, params: RawParams): string[] {
  const given = typeof params.columns === "string" ? params.columns.split(",").map((c) => c.trim()) : null;
  if (given && given.every((c) => (SUBSCRIBER_FIELDS as readonly string[]).includes(c))) return given;
  const { hidden } = tableSettings(user.preferences);
  // The table's order, not the fields' catalogue order: a view saved now opens as it looks now
  // (with no choice made, as it looks on a wide screen).
  return TABLE_COLUMNS.filter(hidden ? (c) => !hidden.includes(c) : (c) => c in FIT_COLUMNS);
}

type Say = Parameters<typeof shownViewName>[1];

/** A stored view as the menu and the views page show it to `user`: a name an erasure gave it in the reader's language. */
function menuView(user: SessionUser, resource: ViewResource, row: ViewRow, defaultId: number | null, t: Say): MenuView & { key: string | null } {
  const problem = viewProblem(row);
  return {
    id: row.id,
    name: shownViewName(row, t),
    query: row.query,
    href: problem ? null : viewHref(resource, row.query, asColumns(row.columns)),
    problem,
    problems: problem ? viewProblems(row) : null,
    shared: row.shared,
    owner: row.owner.name,
    own: row.owner_id === user.id,
    changeable: canChangeView(user, row),
    isDefault: row.id === defaultId,
    key: problem ? null : filtersKey(resource, new URLSearchParams(row.query)),
  };
}

/** The view without its filters' key (the key only finds the current view). */
function withoutKey(view: MenuView & { key: string | null }): MenuView {
  const { id, name, query, href, problem, problems, shared, owner, own, changeable, isDefault } = view;
  return { id, name, query, href, problem, problems, shared, owner, own, changeable, isDefault };
}

/** The address's filters and sort as a view would store them, picked in `keys` order or in the address's own. */
function addressQuery(resource: ViewResource, params: RawParams, keys: readonly string[]): string | null {
  const picked = new URLSearchParams();
  for (const key of keys) {
    const value = params[key];
    if (VIEW_LISTS[resource].keys.includes(key) && typeof value === "string") picked.set(key, value);
  }
  const query = checkViewQuery(resource, picked.toString());
  return query.ok ? query.value : null;
}

/** What "Save view" and "Update" would store of the address: its query (null when the list refuses it) and its columns. */
export function savedAs(user: SessionUser, resource: ViewResource, params: RawParams): Pick<ViewsState, "query" | "columns"> {
  return {
    query: filtersKey(resource, params) === null ? null : addressQuery(resource, params, VIEW_LISTS[resource].keys),
    columns: VIEW_LISTS[resource].columns ? shownColumns(user, params) : null,
  };
}

/**
 * The Views menu of a list: the user's own views and at most MENU_SHARED_VIEWS shared ones of
 * others (lib/views/queries.ts reads no more), the view the address is, and the address's query.
 */
export async function viewsState(user: SessionUser, resource: ViewResource, params: RawParams): Promise<ViewsState> {
  const [rows, defaultId, t] = await Promise.all([menuViews(user, resource), defaultOf(user, resource), getTranslations()]);
  const here = filtersKey(resource, params);
  const shown = rows.map((row) => menuView(user, resource, row, defaultId, t));
  const matching = here === null ? [] : shown.filter((v) => v.key === here);
  let current = matching.find((v) => v.own) ?? matching[0] ?? null;
  if (!current && here !== null && VIEW_LISTS[resource].keys.some((k) => params[k])) {
    // A shared view the menu leaves out is still named when the address is its link, as spelled there.
    const query = addressQuery(resource, params, Object.keys(params));
    const row = query === null ? null : await sharedViewWithQuery(user, resource, query);
    const view = row ? menuView(user, resource, row, defaultId, t) : null;
    current = view?.key === here ? view : null;
  }
  return {
    resource,
    views: shown.map(withoutKey),
    current: current ? withoutKey(current) : null,
    ...savedAs(user, resource, params),
    allHref: allHref(resource),
    isAll: VIEW_LISTS[resource].keys.every((k) => !params[k]),
    // Whether the user has a default view they may still see, shown in the menu or not.
    hasDefault: defaultId !== null,
  };
}

/** One page of the views page: the user's own views and the shared ones, by name, 10 a page. */
export async function viewsPage(user: SessionUser, resource: ViewResource, page: number): Promise<{ views: MenuView[]; pagination: Pagination }> {
  const [{ data, pagination }, defaultId, t] = await Promise.all([listViews(user, { resource, page }), defaultOf(user, resource), getTranslations()]);
  return { views: data.map((row) => withoutKey(menuView(user, resource, row, defaultId, t))), pagination };
}

/** Where a list opened without any query goes: the user's default view, when it still opens. */
export async function defaultViewHref(user: SessionUser, resource: ViewResource, params: RawParams): Promise<string | null> {
  if (Object.keys(params).length > 0) return null;
  const id = await defaultOf(user, resource);
  if (id === null) return null;
  const view = await getVisibleView(user, id);
  return viewProblem(view) ? null : viewHref(resource, view.query, asColumns(view.columns));
}
