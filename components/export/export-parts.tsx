import { Badge } from "@/components/ui/badge";
import type { ExportStatusBody } from "@/lib/export/status";

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

const FILTER_LABELS: Record<string, string> = { branch_name: "branch", country_name: "country", subscription_status: "status" };

export function FileSummary({ file, timeZone, replacing }: { file: NonNullable<ExportStatusBody["file"]>; timeZone: string; replacing: boolean }) {
  const when = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone }).format(new Date(file.completed_at));
  const filters = Object.entries(file.filters).map(([k, v]) => `${FILTER_LABELS[k] ?? k.replaceAll("_", " ")}: ${v}`);
  return (
    <p id="export-file" className="text-sm text-slate-600">
      {replacing ? "Previous file, still available: " : "Latest file: "}
      <span className="font-medium text-slate-800">{file.filename}</span>, {file.rows.toLocaleString("en-GB")} row
      {file.rows === 1 ? "" : "s"}, generated {when}
      {filters.length ? ` (${filters.join(", ")})` : " (all subscribers)"}.
    </p>
  );
}
