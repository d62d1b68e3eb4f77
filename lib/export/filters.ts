import { problem } from "@/lib/i18n/problem";
import { parseWith, refusal, type ParseResult } from "@/lib/list/parse";
import { SUBSCRIBER_FILTER_KEYS, SUBSCRIBER_SORT_COLUMNS, subscriberFilterOnlySchema, type SubscriberFilterValues } from "@/lib/subscribers/filters";

// An export's filters: the list's names and parser, stored as given so the worker parses them with the same schema.

export type RawExportFilters = Record<string, string>;

/** Picks the list's filters out of a query (the page's address); page, sort and other names are ignored. */
function pickFilters(input: unknown): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  if (!input || typeof input !== "object") return out;
  const source = input instanceof URLSearchParams ? Object.fromEntries(input) : (input as Record<string, unknown>);
  for (const key of SUBSCRIBER_FILTER_KEYS) {
    const value = source[key];
    if (typeof value === "string" || Array.isArray(value)) out[key] = value as string | string[];
    else if (typeof value === "number" || typeof value === "boolean") out[key] = String(value);
  }
  return out;
}

/** The list's sort the file's rows follow (its `sort` value, `-` for descending); null: by id. */
export type ExportSort = { column: (typeof SUBSCRIBER_SORT_COLUMNS)[number]; direction: "asc" | "desc" };

export type ParsedExportFilters = { raw: RawExportFilters; values: SubscriberFilterValues; sort: string | null };

const SORTS = new Set<string>(SUBSCRIBER_SORT_COLUMNS.flatMap((c) => [c, `-${c}`]));

/** A stored or given `sort`, as the list reads it; null when there is none (or it is not one of the list's). */
export function exportSort(sort: unknown): ExportSort | null {
  if (typeof sort !== "string" || !SORTS.has(sort)) return null;
  return { column: sort.replace(/^-/, "") as ExportSort["column"], direction: sort.startsWith("-") ? "desc" : "asc" };
}

/** The filters as an export stores them: the list's filter names with their given (trimmed) text. */
export function rawExportFilters(input: unknown): RawExportFilters {
  const raw: RawExportFilters = {};
  for (const [key, value] of Object.entries(pickFilters(input))) {
    if (typeof value === "string" && value.trim() !== "") raw[key] = value.trim();
  }
  return raw;
}

export function parseExportFilters(input: unknown): ParseResult<ParsedExportFilters> {
  const parsed = parseWith(subscriberFilterOnlySchema, pickFilters(input));
  if (!parsed.ok) return parsed;
  const given = input instanceof URLSearchParams ? input.get("sort") : (input as Record<string, unknown> | null)?.sort;
  const sort = typeof given === "string" && given.trim() !== "" ? given.trim() : null;
  if (sort !== null && !exportSort(sort)) {
    return refusal({ sort: [problem("list.oneOf", { name: "sort", values: [...SORTS].join(", ") })] });
  }
  return { ok: true, value: { raw: rawExportFilters(input), values: parsed.value, sort } };
}

/** The list's other parameters: a body may carry them (as the list's address does); the rows follow `sort`. */
const LIST_PARAMETERS = ["page", "sort"];

/**
 * The filters of a JSON body, as strings under the list's names. Anything else is a 400 naming
 * the key: a misspelt filter or `{"$ne": …}` dropped silently would export every subscriber.
 */
export function parseExportBody(body: unknown): ParseResult<ParsedExportFilters> {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    return refusal({ _: [problem("export.filtersObject")] });
  }
  return strictly(Object.entries(body), problem("export.filterString")) ?? parseExportFilters(body);
}

/** The filters of a bodiless POST's query string, as strict as a body. */
export function parseExportQuery(query: URLSearchParams): ParseResult<ParsedExportFilters> {
  // Grouped in a Map, not an object: a key `__proto__` must be named, not swallowed by the prototype.
  const grouped = new Map<string, string[]>();
  for (const [key, value] of query) grouped.set(key, [...(grouped.get(key) ?? []), value]);
  const entries = [...grouped].map(([key, values]): [string, string | string[]] => [key, values.length === 1 ? values[0]! : values]);
  return strictly(entries, problem("export.filterOnce")) ?? parseExportFilters(Object.fromEntries(entries));
}

/** A 400 naming every key that is not a filter (or page, sort) and every value that is not one string; null when there is none. */
function strictly(entries: [string, unknown][], notAString: string): ParseResult<never> | null {
  const known = new Set<string>([...SUBSCRIBER_FILTER_KEYS, ...LIST_PARAMETERS]);
  const problems: [string, string[]][] = [];
  for (const [key, value] of entries) {
    if (!known.has(key)) problems.push([key, [problem("export.noSuchFilter", { key: JSON.stringify(key), filters: SUBSCRIBER_FILTER_KEYS.join(", ") })]]);
    else if (typeof value !== "string") problems.push([key, [notAString]]);
  }
  if (problems.length === 0) return null;
  // fromEntries defines own keys, "__proto__" included (an assignment would set the prototype).
  return refusal(Object.fromEntries(problems));
}

/** The stored filters, parsed again by the worker (they were valid when stored). */
export const storedFilters = (json: unknown): SubscriberFilterValues => subscriberFilterOnlySchema.parse(pickFilters(json));
