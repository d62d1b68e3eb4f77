import { formatsFor } from "@/lib/i18n/format";
import type { RawParams } from "@/lib/list/params";
import { ERASED } from "@/lib/people/markers";
import type { FilterField } from "./filter-bar";

// The words of the filters in force, apart from the chips' markup: the export panel, a client
// component, names a file's filters with them without loading the list's parameter parsing.

export type FilterChip = { key: string; label: string; value: string };

/**
 * How a date range's ends and days are said, and a value a person's erasure left (lib/people/markers.ts):
 * the chips' and the export panel's words (list.filterBar).
 */
export type ChipWords = { from: (label: string) => string; to: (label: string) => string; day: (value: string) => string; erased: string };

const english = formatsFor("en", "UTC");
const ENGLISH: ChipWords = { from: (label) => `${label} from`, to: (label) => `${label} to`, day: (value) => english.day(value), erased: ERASED };

/** The chip words of a `list` translator, the page's formats and its word for an erased value (list.filterBar.erased). */
export const chipWords = (t: (key: "filterBar.from" | "filterBar.to", values: { label: string }) => string, day: (value: string) => string, erased: string): ChipWords => ({
  from: (label) => t("filterBar.from", { label }),
  to: (label) => t("filterBar.to", { label }),
  day,
  erased,
});

/** The filters in force as people read them ("Status: Active", not "subscription_status: active"); English without `words`. */
export function filterChips(fields: FilterField[], params: RawParams, words: ChipWords = ENGLISH): FilterChip[] {
  const chips: FilterChip[] = [];
  const value = (key: string) => (Object.hasOwn(params, key) && typeof params[key] === "string" ? (params[key] as string).trim() : "");
  for (const field of fields) {
    if (field.kind === "dateRange") {
      if (value(field.from)) chips.push({ key: field.from, label: words.from(field.label), value: words.day(value(field.from)) });
      if (value(field.to)) chips.push({ key: field.to, label: words.to(field.label), value: words.day(value(field.to)) });
      continue;
    }
    const v = value(field.name);
    if (!v) continue;
    const shown = field.kind === "select" ? (field.options.find((o) => o.value === v)?.label ?? v) : v === ERASED ? words.erased : v;
    chips.push({ key: field.name, label: field.label, value: shown });
  }
  return chips;
}

/** A column's label for a sort: its filter's, or its date range's (`created_at`: "Created"); null when no filter names it. */
export const sortColumnLabel = (fields: FilterField[], column: string): string | null =>
  fields.find((f) => (f.kind === "dateRange" ? f.from.startsWith(`${column.replace(/_at$/, "")}_`) : f.name === column))?.label ?? null;
