import "server-only";
import { cache } from "react";
import type { SessionUser } from "@/lib/auth/permissions";
import { canChangeView } from "@/lib/auth/permissions";
import type { RawParams } from "@/lib/list/params";
import { tableSettings } from "@/lib/subscribers/columns";
import { SUBSCRIBER_FIELDS } from "@/lib/subscribers/filters";
import { allHref, checkViewQuery, filtersKey, VIEW_LISTS, viewHref, type ViewResource } from "./resources";
import { defaultViewId, getVisibleView, listViews, viewProblem } from "./queries";

// What a list page needs of saved views: the menu's entries, the view the address is, and the
// default view a bare list opens with (docs/decisions/0027-saved-views.md).

export type MenuView = {
  id: number;
  name: string;
  /** Its query as stored. */
  query: string;
  /** The list's address that opens it; null when it no longer opens (see `problem`). */
  href: string | null;
  problem: string | null;
  shared: boolean;
  owner: string;
  own: boolean;
  changeable: boolean;
  isDefault: boolean;
};

export type ViewsState = {
  resource: ViewResource;
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
  const hidden = new Set<string>(tableSettings(user.preferences).hidden);
  return SUBSCRIBER_FIELDS.filter((c) => !hidden.has(c));
}

export async function viewsState(user: SessionUser, resource: ViewResource, params: RawParams): Promise<ViewsState> {
  const [rows, defaultId] = await Promise.all([listViews(user, resource), defaultOf(user, resource)]);
  const here = filtersKey(resource, params);
  const keys = new Map<number, string | null>();
  const views = rows.map((row): MenuView => {
    const problem = viewProblem(row);
    keys.set(row.id, problem ? null : filtersKey(resource, new URLSearchParams(row.query)));
    return {
      id: row.id,
      name: row.name,
      query: row.query,
      href: problem ? null : viewHref(resource, row.query, asColumns(row.columns)),
      problem,
      shared: row.shared,
      owner: row.owner.name,
      own: row.owner_id === user.id,
      changeable: canChangeView(user, row),
      isDefault: row.id === defaultId,
    };
  });
  const matching = here === null ? [] : views.filter((v) => keys.get(v.id) === here);
  const current = matching.find((v) => v.own) ?? matching[0] ?? null;
  const picked = new URLSearchParams();
  for (const key of VIEW_LISTS[resource].keys) {
    const value = params[key];
    if (typeof value === "string") picked.set(key, value);
  }
  const query = here === null ? null : checkViewQuery(resource, picked.toString());
  return {
    resource,
    views,
    current,
    query: query?.ok ? query.value : null,
    columns: VIEW_LISTS[resource].columns ? shownColumns(user, params) : null,
    allHref: allHref(resource),
    isAll: VIEW_LISTS[resource].keys.every((k) => !params[k]),
    hasDefault: views.some((v) => v.isDefault),
  };
}

/** Where a list opened without any query goes: the user's default view, when it still opens. */
export async function defaultViewHref(user: SessionUser, resource: ViewResource, params: RawParams): Promise<string | null> {
  if (Object.keys(params).length > 0) return null;
  const id = await defaultOf(user, resource);
  if (id === null) return null;
  const view = await getVisibleView(user, id);
  return viewProblem(view) ? null : viewHref(resource, view.query, asColumns(view.columns));
}
