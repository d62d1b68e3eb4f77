import { parseWith, type ParseResult } from "@/lib/list/params";
import { SUBSCRIBER_FILTER_KEYS, subscriberFilterOnlySchema, type SubscriberFilterValues } from "@/lib/subscribers/filters";

// The filters an export captures: the list's own filter names and parser (no page, no sort).
// They are stored as the query strings they came as, so the worker parses them with the same
// schema, and the status shows them in docs/API.md's names.

export type RawExportFilters = Record<string, string>;

/** Picks the list's filters out of a query or a JSON body; page, sort and other names are ignored. */
export function pickFilters(input: unknown): Record<string, string | string[]> {
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

export type ParsedExportFilters = { raw: RawExportFilters; values: SubscriberFilterValues };

export function parseExportFilters(input: unknown): ParseResult<ParsedExportFilters> {
  const picked = pickFilters(input);
  const parsed = parseWith(subscriberFilterOnlySchema, picked);
  if (!parsed.ok) return parsed;
  const raw: RawExportFilters = {};
  for (const [key, value] of Object.entries(picked)) {
    if (typeof value === "string" && value.trim() !== "") raw[key] = value.trim();
  }
  return { ok: true, value: { raw, values: parsed.value } };
}

/** The stored filters, parsed again by the worker (they were valid when stored). */
export function storedFilters(json: unknown): SubscriberFilterValues {
  return subscriberFilterOnlySchema.parse(pickFilters(json));
}
