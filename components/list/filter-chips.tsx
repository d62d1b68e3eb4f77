import Link from "next/link";
import { rawParams, withParams, type RawParams } from "@/lib/list/params";
import type { FilterField } from "./filter-bar";
import { filterChips } from "./filter-chip-words";

const CHIP = "inline-flex max-w-[18rem] items-center gap-1.5 rounded-full border border-brand-200 bg-brand-50 px-3 py-1 text-xs text-brand-900";

/** One removable chip (a link) per filter in force, so the list says what it shows; no script. */
export function FilterChips({ fields, params, path, emptyQuery }: { fields: FilterField[]; params: RawParams; path: string; emptyQuery?: string }) {
  const chips = filterChips(fields, params);
  if (chips.length === 0) return null;
  const sort = typeof params.sort === "string" ? params.sort : undefined;
  // With a default view, a bare address would open it: "nothing left" says so (emptyQuery).
  const href = (query: string) => `${path}${query || (emptyQuery ? `?${emptyQuery}` : "")}`;
  return (
    <ul aria-label="Filters in force" className="flex flex-wrap items-center gap-2">
      {chips.map((chip) => (
        <li key={chip.key}>
          <Link
            href={href(withParams(params, { [chip.key]: undefined, page: undefined }))}
            className={`${CHIP} hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600`}
            aria-label={`Remove the filter ${chip.label}: ${chip.value}`}
          >
            <span className="truncate">
              {chip.label}: <bdi className="font-medium">{chip.value}</bdi>
            </span>
            <span aria-hidden="true" className="text-brand-700">
              ✕
            </span>
          </Link>
        </li>
      ))}
      <li>
        <Link href={href(withParams({}, { sort }))} className="px-2 py-1 text-xs font-medium text-slate-600 underline-offset-2 hover:text-slate-900 hover:underline">
          Clear filters
        </Link>
      </li>
    </ul>
  );
}

/** A column's label for the sort: its filter's, or its date range's (`created_at`: "Created"). */
const columnLabel = (fields: FilterField[], column: string) =>
  fields.find((f) => (f.kind === "dateRange" ? f.from.startsWith(`${column.replace(/_at$/, "")}_`) : f.name === column))?.label ?? column.replaceAll("_", " ");

/** A saved query's filters and sort as the toolbar's chips, to read (a saved view's, on the views page and menu). */
export function QueryChips({ fields, query, label }: { fields: FilterField[]; query: string; label: string }) {
  const params = rawParams(new URLSearchParams(query));
  const sort = typeof params.sort === "string" ? params.sort : null;
  const chips = filterChips(fields, params);
  if (sort) chips.push({ key: "sort", label: "Sort", value: `${columnLabel(fields, sort.replace(/^-/, ""))}${sort.startsWith("-") ? ", descending" : ""}` });
  if (chips.length === 0) return null;
  return (
    <ul aria-label={label} className="flex flex-wrap gap-1.5">
      {chips.map((chip) => (
        <li key={chip.key} className={CHIP}>
          <span className="truncate">
            {chip.label}: <bdi className="font-medium">{chip.value}</bdi>
          </span>
        </li>
      ))}
    </ul>
  );
}
