import type { FilterField } from "@/components/list/filter-bar";
import { filterChips } from "@/components/list/filter-chip-words";
import { Badge } from "@/components/ui/badge";
import type { ExportStatusBody } from "@/lib/export/status";
import { fieldLabel } from "@/lib/subscribers/fields";

const LABELS = {
  in_queue: { text: "In queue", tone: "amber" },
  completed: { text: "Completed", tone: "green" },
  failed: { text: "Failed", tone: "red" },
} as const;

export function StatusBadge({ state }: { state: ExportStatusBody["downloadable_file_status"] }) {
  if (!state) return null;
  return <Badge tone={LABELS[state].tone}>{LABELS[state].text}</Badge>;
}

/** The bar of an in_queue export, announced politely as it moves. */
export function ExportProgress({ status }: { status: ExportStatusBody }) {
  const started = status.started_at !== null;
  const text = started
    ? `Preparing the file: ${status.processed_rows.toLocaleString("en-GB")} of ${status.total_rows.toLocaleString("en-GB")} rows (${status.progress}%).`
    : "Waiting for the export to start…";
  return (
    <div className="space-y-1.5">
      <div
        role="progressbar"
        aria-label="Export progress"
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

/** "Created, descending" for a stored sort; null (an API request without one) is by id. */
export function sortWords(sort: string | null): string {
  if (!sort) return "ID, ascending";
  return `${fieldLabel(sort.replace(/^-/, ""))}, ${sort.startsWith("-") ? "descending" : "ascending"}`;
}

/** Whether a file holds the current filters' export: the same filters and sort. */
export function holdsCurrent(file: NonNullable<ExportStatusBody["file"]>, filters: Record<string, string>, sort: string): boolean {
  const same = (a: Record<string, string>, b: Record<string, string>) => Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);
  return file.sort === sort && same(file.filters, filters);
}

/** What a file holds, said wherever it can be downloaded: its name, rows, filters, sort and time. */
export function FileSummary({ file, fields, timeZone, lead, id }: { file: NonNullable<ExportStatusBody["file"]>; fields: FilterField[]; timeZone: string; lead: string; id: string }) {
  const when = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone }).format(new Date(file.completed_at));
  // In the toolbar's words ("Status: Active"), as its chips say them.
  const filters = filterChips(fields, file.filters).map((chip) => `${chip.label}: ${chip.value}`);
  return (
    <p id={id} className="text-sm text-slate-600">
      {lead} <span className="font-medium text-slate-800">{file.filename}</span>,{" "}
      <span className="font-medium text-slate-800">
        {file.rows.toLocaleString("en-GB")} row{file.rows === 1 ? "" : "s"}
      </span>{" "}
      {filters.length ? `with ${filters.join(", ")}` : "of all subscribers"}, sorted by {sortWords(file.sort)}, generated {when}.
    </p>
  );
}
