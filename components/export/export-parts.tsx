import { useTranslations } from "next-intl";
import type { FilterField } from "@/components/list/filter-bar";
import { chipWords, filterChips, sortColumnLabel } from "@/components/list/filter-chip-words";
import { Badge } from "@/components/ui/badge";
import { useFormats } from "@/lib/i18n/client";
import type { ExportStatusBody } from "@/lib/export/status";
import { labelField } from "@/lib/subscribers/fields";

// The export panel's parts. Client code (the panel polls): the page hands it `export` and `list`.

const TONES = { in_queue: "amber", completed: "green", failed: "red" } as const;
const STATES = { in_queue: "status.inQueue", completed: "status.completed", failed: "status.failed" } as const;

export function StatusBadge({ state }: { state: ExportStatusBody["downloadable_file_status"] }) {
  const t = useTranslations("export");
  if (!state) return null;
  return <Badge tone={TONES[state]}>{t(STATES[state])}</Badge>;
}

/** The bar of an in_queue export, announced politely as it moves. */
export function ExportProgress({ status }: { status: ExportStatusBody }) {
  const t = useTranslations("export");
  const f = useFormats();
  const text =
    status.started_at !== null
      ? t("progress.preparing", { processed: f.count(status.processed_rows), count: status.total_rows, total: f.count(status.total_rows), progress: status.progress })
      : t("progress.waiting");
  return (
    <div className="space-y-1.5">
      <div
        role="progressbar"
        aria-label={t("progress.label")}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={status.progress}
        className="h-2 overflow-hidden rounded-full bg-slate-100"
      >
        <div className="h-full rounded-full bg-brand-600 transition-[width] duration-500" style={{ width: `${Math.max(2, status.progress)}%` }} />
      </div>
      <p className="text-sm text-slate-600" aria-live="polite">
        {text}
      </p>
    </div>
  );
}

/** "Created, descending" for a stored sort, its column named as the toolbar names it; null (an API request without one) is by id. */
export function useSortWords(fields: FilterField[]): (sort: string | null) => string {
  const t = useTranslations("export");
  const label = useTranslations();
  return (sort) => {
    const column = (sort ?? "id").replace(/^-/, "");
    return t("sort", { column: sortColumnLabel(fields, column) ?? labelField(label, column), direction: sort?.startsWith("-") ? "desc" : "asc" });
  };
}

/** Whether a file holds the current filters' export: the same filters and sort. */
export function holdsCurrent(file: NonNullable<ExportStatusBody["file"]>, filters: Record<string, string>, sort: string): boolean {
  const same = (a: Record<string, string>, b: Record<string, string>) => Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);
  return file.sort === sort && same(file.filters, filters);
}

/** What a file holds, said wherever it can be downloaded: its name, rows, filters, sort and time (and how long ago). */
export function FileSummary({ file, fields, lead, id }: { file: NonNullable<ExportStatusBody["file"]>; fields: FilterField[]; lead: "current" | "currentStill" | "older"; id: string }) {
  const t = useTranslations("export");
  const list = useTranslations("list");
  const f = useFormats();
  const sortWords = useSortWords(fields);
  const made = new Date(file.completed_at);
  // In the toolbar's words ("Status: Active"), as its chips say them.
  const filters = filterChips(fields, file.filters, chipWords(list, f.day, list("filterBar.erased"))).map((chip) => list("chips.chipText", { label: chip.label, value: chip.value }));
  return (
    <p id={id} className="text-sm text-slate-600">
      {t.rich("file.summary", {
        lead,
        filename: file.filename,
        count: file.rows,
        rows: f.count(file.rows),
        filtered: filters.length ? "yes" : "no",
        filters: filters.join(t("file.filterSeparator")),
        sort: sortWords(file.sort),
        when: f.dateTime(made),
        relative: f.relative(made),
        name: (c) => (
          <bdi dir="ltr" className="font-medium text-slate-800">
            {c}
          </bdi>
        ),
        strong: (c) => <span className="font-medium text-slate-800">{c}</span>,
        // Rendered again in the browser a moment later: "5 seconds ago" may have become "6 seconds ago".
        ago: (c) => <span suppressHydrationWarning>{c}</span>,
      })}
    </p>
  );
}
