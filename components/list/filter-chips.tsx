import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { getFormats } from "@/lib/i18n/server";
import { rawParams, withParams, type RawParams } from "@/lib/list/params";
import type { FilterField } from "./filter-bar";
import { chipWords, filterChips, sortColumnLabel } from "./filter-chip-words";

const CHIP = "inline-flex max-w-[18rem] items-center gap-1.5 rounded-full border border-brand-200 bg-brand-50 px-3 py-1 text-xs text-brand-900";

/** "Status: Active", the value isolated: a name or an email keeps its own direction in Arabic. */
const chipText = (t: Awaited<ReturnType<typeof getTranslations<"list">>>, label: string, value: string) =>
  t.rich("chips.chip", { label, value, v: (c) => <bdi className="font-medium">{c}</bdi> });

/** One removable chip (a link) per filter in force, so the list says what it shows; no script. */
export async function FilterChips({ fields, params, path, emptyQuery }: { fields: FilterField[]; params: RawParams; path: string; emptyQuery?: string }) {
  const [t, f] = await Promise.all([getTranslations("list"), getFormats()]);
  const chips = filterChips(fields, params, chipWords(t, f.day, t("filterBar.erased")));
  if (chips.length === 0) return null;
  const sort = typeof params.sort === "string" ? params.sort : undefined;
  // With a default view, a bare address would open it: "nothing left" says so (emptyQuery).
  const href = (query: string) => `${path}${query || (emptyQuery ? `?${emptyQuery}` : "")}`;
  return (
    <ul aria-label={t("chips.label")} className="flex flex-wrap items-center gap-2">
      {chips.map((chip) => (
        <li key={chip.key}>
          <Link
            href={href(withParams(params, { [chip.key]: undefined, page: undefined }))}
            className={`${CHIP} hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600`}
            aria-label={t("chips.remove", { label: chip.label, value: chip.value })}
          >
            <span className="truncate">{chipText(t, chip.label, chip.value)}</span>
            <span aria-hidden="true" className="text-brand-700">
              ✕
            </span>
          </Link>
        </li>
      ))}
      <li>
        <Link href={href(withParams({}, { sort }))} className="px-2 py-1 text-xs font-medium text-slate-600 underline-offset-2 hover:text-slate-900 hover:underline">
          {t("chips.clear")}
        </Link>
      </li>
    </ul>
  );
}

/** A column's label for the sort: its filter's, or its date range's (`created_at`: "Created"). */
const columnLabel = (fields: FilterField[], column: string) => sortColumnLabel(fields, column) ?? column.replaceAll("_", " ");

/** A saved query's filters and sort as the toolbar's chips, to read (a saved view's, on the views page and menu). */
export async function QueryChips({ fields, query, label }: { fields: FilterField[]; query: string; label: string }) {
  const [t, f] = await Promise.all([getTranslations("list"), getFormats()]);
  const params = rawParams(new URLSearchParams(query));
  const sort = typeof params.sort === "string" ? params.sort : null;
  const chips = filterChips(fields, params, chipWords(t, f.day, t("filterBar.erased")));
  if (sort) {
    const column = columnLabel(fields, sort.replace(/^-/, ""));
    chips.push({ key: "sort", label: t("chips.sort"), value: t("chips.sortValue", { column, direction: sort.startsWith("-") ? "desc" : "asc" }) });
  }
  if (chips.length === 0) return null;
  return (
    <ul aria-label={label} className="flex flex-wrap gap-1.5">
      {chips.map((chip) => (
        <li key={chip.key} className={CHIP}>
          <span className="truncate">{chipText(t, chip.label, chip.value)}</span>
        </li>
      ))}
    </ul>
  );
}
