import type { z } from "zod";
import { BRANCH_FILTER_KEYS, branchFiltersSchema } from "@/lib/branches/filters";
import { problem } from "@/lib/i18n/problem";
import { rawParams, type RawParams } from "@/lib/list/params";
import { parseWith, refusal, type ParseResult } from "@/lib/list/parse";
import { SUBSCRIBER_FIELDS, SUBSCRIBER_FILTER_KEYS, subscriberFiltersSchema } from "@/lib/subscribers/filters";

// The lists that have saved views, each with its own parser: a view's query is checked by the
// very schema the list page, its API and its export use (docs/decisions/0027-saved-views.md).

export const VIEW_RESOURCES = ["subscribers", "branches"] as const;
/** The longest query a view keeps (its column's size), counted as stored: escaped as in an address. */
export const VIEW_QUERY_MAX_LENGTH = 2000;
export type ViewResource = (typeof VIEW_RESOURCES)[number];

type ListSpec = {
  path: string;
  schema: z.ZodType;
  /** The keys a view's query may hold: the list's filters and its sort. */
  keys: readonly string[];
  /** The table's columns a view may show, or null when the list has no column choice. */
  columns: readonly string[] | null;
};

export const VIEW_LISTS: Record<ViewResource, ListSpec> = {
  subscribers: { path: "/subscribers", schema: subscriberFiltersSchema, keys: [...SUBSCRIBER_FILTER_KEYS, "sort"], columns: SUBSCRIBER_FIELDS },
  branches: { path: "/branches", schema: branchFiltersSchema, keys: [...BRANCH_FILTER_KEYS, "sort"], columns: null },
};

/** Whether a stored view's list still has saved views (a list renamed or removed since: no). */
export const isViewResource = (value: string): value is ViewResource => (VIEW_RESOURCES as readonly string[]).includes(value);

/** What the list's address may carry beside the filters and sort, and why a view's query may not. */
const NOT_IN_A_QUERY: Record<string, string> = {
  page: problem("views.noPage"),
  view: problem("views.noViewMarker"),
  columns: problem("views.noColumnsInQuery"),
};

const refused = refusal;

/**
 * A view's query checked by its list's parser: every key one the list reads, every value one it
 * accepts. The result is the query as stored: trimmed values, empty ones left out, in the given order.
 */
export function checkViewQuery(resource: ViewResource, query: string): ParseResult<string> {
  const list = VIEW_LISTS[resource];
  const params = new URLSearchParams(query.replace(/^\?/, ""));
  // A Map, then own keys: an assignment to `problems["__proto__"]` would set the prototype.
  const problems = new Map<string, string[]>();
  for (const key of new Set(params.keys())) {
    if (Object.hasOwn(NOT_IN_A_QUERY, key)) problems.set(key, [NOT_IN_A_QUERY[key]!]);
    else if (!list.keys.includes(key)) problems.set(key, [problem("views.noSuchFilter", { resource, key: JSON.stringify(key), filters: list.keys.join(", ") })]);
  }
  if (problems.size) return refused(Object.fromEntries(problems));
  const parsed = parseWith(list.schema, params);
  if (!parsed.ok) return parsed;
  const stored = new URLSearchParams();
  for (const [key, value] of params) if (value.trim() !== "") stored.append(key, value.trim());
  const text = stored.toString();
  // Escaping lengthens what the list accepts ("€" is "%E2%82%AC"): checked as stored, never a database error.
  if (text.length > VIEW_QUERY_MAX_LENGTH) {
    return refused({ query: [problem("views.queryTooLong", { length: text.length, max: VIEW_QUERY_MAX_LENGTH })] });
  }
  return { ok: true, value: text };
}

/** A view's columns: null, or some of the list's columns in order, each once. */
export function checkViewColumns(resource: ViewResource, columns: readonly string[] | null): ParseResult<string[] | null> {
  const known = VIEW_LISTS[resource].columns;
  if (columns === null) return { ok: true, value: null };
  if (known === null) return refused({ columns: [problem("views.noColumnChoice", { resource })] });
  const unknown = columns.filter((c) => !known.includes(c));
  if (unknown.length) return refused({ columns: [problem("views.notAColumn", { resource, unknown: unknown.join(", "), columns: known.join(", ") })] });
  if (columns.length === 0) return refused({ columns: [problem("views.noColumns")] });
  if (new Set(columns).size !== columns.length) return refused({ columns: [problem("list.columnOnce")] });
  return { ok: true, value: [...columns] };
}

/**
 * The filters and sort a query means, as one comparable string (defaults filled in, values as
 * parsed, page and the address's other parameters left out); null when the list refuses it.
 */
export function filtersKey(resource: ViewResource, query: URLSearchParams | RawParams): string | null {
  const parsed = parseWith(VIEW_LISTS[resource].schema, rawParams(query));
  if (!parsed.ok) return null;
  const value = parsed.value as Record<string, unknown>;
  const keys = VIEW_LISTS[resource].keys.filter((k) => value[k] !== undefined).toSorted();
  return JSON.stringify(keys.map((k) => [k, value[k]]));
}

/** The list's address that opens a view: its query, then its columns; `view=all` for a view of nothing. */
export function viewHref(resource: ViewResource, query: string, columns: readonly string[] | null): string {
  const params = new URLSearchParams(query);
  if (columns) params.set("columns", columns.join(","));
  const text = params.toString();
  return `${VIEW_LISTS[resource].path}?${text || "view=all"}`;
}

/** The list without any view, and without the user's default view. */
export const allHref = (resource: ViewResource) => `${VIEW_LISTS[resource].path}?view=all`;
