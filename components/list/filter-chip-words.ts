import { formatDay } from "@/lib/date-time-format";
import type { RawParams } from "@/lib/list/params";
import type { FilterField } from "./filter-bar";

// The words of the filters in force, apart from the chips' markup: the export panel, a client
// component, names a file's filters with them without loading the list's parameter parsing.

export type FilterChip = { key: string; label: string; value: string };

/** The filters in force as people read them ("Status: Active", not "subscription_status: active"). */
export function filterChips(fields: FilterField[], params: RawParams): FilterChip[] {
  const chips: FilterChip[] = [];
  const value = (key: string) => (Object.hasOwn(params, key) && typeof params[key] === "string" ? (params[key] as string).trim() : "");
  for (const field of fields) {
    if (field.kind === "dateRange") {
      if (value(field.from)) chips.push({ key: field.from, label: `${field.label} from`, value: formatDay(value(field.from)) });
      if (value(field.to)) chips.push({ key: field.to, label: `${field.label} to`, value: formatDay(value(field.to)) });
      continue;
    }
    const v = value(field.name);
    if (!v) continue;
    const shown = field.kind === "select" ? (field.options.find((o) => o.value === v)?.label ?? v) : v;
    chips.push({ key: field.name, label: field.label, value: shown });
  }
  return chips;
}
