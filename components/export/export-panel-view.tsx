"use client";

import { useEffect, useRef, useState, useTransition } from "react";
import { notify } from "@/components/toast";
import { buttonClass } from "@/components/ui/button-styles";
import type { ActionResult } from "@/lib/actions";
import type { ExportFormat } from "@/lib/export/format";
import type { ExportStatusBody } from "@/lib/export/status";
import { ExportProgress, FileSummary, holdsCurrent, sortWords, StatusBadge } from "./export-parts";
import { FormAlert } from "@/components/ui/form-alert";
import type { ToolbarFilters } from "@/components/list/filter-bar";
import { callAction } from "@/components/ui/call-action";

const POLL_MS = 1500;

type Props = {
  initial: ExportStatusBody;
  /** The current list filters (query strings); null count when they are not valid, "unknown" when it could not be counted. */
  filters: Record<string, string>;
  /** The list's sort (its `sort` value, the default spelt out): the file's rows follow it. */
  sort: string;
  /** The saved view whose filters these are, if any. */
  view?: string | null;
  matching: number | null | "unknown";
  request: (filters: Record<string, string>) => Promise<ActionResult<ExportStatusBody>>;
  timeZone: string;
  /**
   * The list's toolbar, to name a file's filters as it does: the very object the toolbar gets, so
   * the page's RSC payload carries it once and refers to it here.
   */
  toolbar: ToolbarFilters;
};

/** `Request export`, the state of the user's export (polled while in_queue) and `Download`. */
export function ExportPanelView({ initial, filters, sort, view, matching, request, timeZone, toolbar }: Props) {
  const fields = toolbar.search ? [toolbar.search, ...toolbar.fields] : toolbar.fields;
  const [status, setStatus] = useState(initial);
  const [format, setFormat] = useState<ExportFormat>(initial.format);
  const [pending, startTransition] = useTransition();
  const state = status.downloadable_file_status;
  const inQueue = state === "in_queue";

  useEffect(() => {
    if (!inQueue) return;
    let active = true;
    const timer = setInterval(async () => {
      try {
        const response = await fetch("/api/v1/subscribers/export", { cache: "no-store" });
        if (response.ok && active) setStatus((await response.json()) as ExportStatusBody);
      } catch {
        /* offline for a moment: the next tick tries again */
      }
    }, POLL_MS);
    return () => {
      active = false;
      clearInterval(timer);
    };
  }, [inQueue]);

  const previous = useRef(state);
  useEffect(() => {
    const file = status.downloadable_file;
    if (previous.current === "in_queue" && state === "completed" && file) notify("success", "Your export file is ready.", { label: "Download", onClick: () => window.location.assign(file) });
    if (previous.current === "in_queue" && state === "failed") notify("error", "The export failed. You can request it again.");
    previous.current = state;
  }, [state, status.downloadable_file]);

  const requestExport = () =>
    startTransition(async () => {
      const result = await callAction(() => request({ ...filters, sort, format }));
      if (!result) return notify("error", "The export could not be requested. Check your connection and try again.");
      if (result.ok) {
        setStatus(result.data);
        notify("success", result.message ?? "Export requested.");
        return;
      }
      notify("error", result.formError ?? "The export could not be requested.");
      const response = await fetch("/api/v1/subscribers/export", { cache: "no-store" }).catch(() => null);
      if (response?.ok) setStatus((await response.json()) as ExportStatusBody);
    });

  const reason = inQueue
    ? "An export is already being prepared. You can request another one when it is ready."
    : matching === null
      ? "Fix the filters before exporting."
      : matching === 0
        ? "No subscriber matches the current filters, so there is nothing to export."
        : null;
  const file = status.file;
  const current = file !== null && holdsCurrent(file, filters, sort);

  return (
    <section aria-labelledby="export-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="space-y-1">
          <h2 id="export-heading" className="flex items-center gap-2 text-base font-semibold text-slate-900">
            Export file <StatusBadge state={state} />
          </h2>
          <p className="text-sm text-slate-600">
            {matching === null
              ? "The filters are not valid."
              : matching === "unknown"
                ? "The subscribers matching the current filters could not be counted just now; they will be exported."
                : matching === 0
                  ? "No subscriber matches the current filters."
                  : `${matching.toLocaleString("en-GB")} subscriber${matching === 1 ? "" : "s"}${Object.keys(filters).length ? (matching === 1 ? " matches the current filters and" : " match the current filters and") : ""} will be exported. Rows in the list's order: ${sortWords(sort)}.`}
          </p>
          {view ? (
            <p className="text-sm text-slate-600">
              The view “<bdi className="font-medium text-slate-800">{view}</bdi>”: exactly its filters.
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <FormatChoice value={format} onChange={setFormat} disabled={pending || reason !== null} />
          <button
            type="button"
            className={buttonClass.primary}
            onClick={requestExport}
            disabled={pending || reason !== null}
            aria-describedby={reason ? "export-unavailable" : undefined}
          >
            {pending ? "Requesting…" : "Request export"}
          </button>
          {current && status.downloadable_file ? (
            <a href={status.downloadable_file} className={buttonClass.secondary} download aria-describedby="export-file">
              Download ({file.rows.toLocaleString("en-GB")} row{file.rows === 1 ? "" : "s"})
            </a>
          ) : null}
        </div>
      </div>
      {reason ? (
        <p id="export-unavailable" className="text-sm text-slate-600">
          {reason}
        </p>
      ) : null}
      {inQueue ? <ExportProgress status={status} /> : null}
      <FormAlert message={state === "failed" ? status.error : null} className="rounded-md bg-red-50 px-3 py-2" />
      {current ? (
        <FileSummary id="export-file" file={file} fields={fields} timeZone={timeZone} lead={inQueue ? "The current filters' file, still available:" : "The current filters' file:"} />
      ) : file && status.downloadable_file ? (
        <div role="group" aria-label="Older file" className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-dashed border-slate-300 bg-slate-50 px-3 py-2">
          <FileSummary id="export-file" file={file} fields={fields} timeZone={timeZone} lead="Older file, made with other filters or sort:" />
          <a href={status.downloadable_file} className={buttonClass.secondary} download aria-describedby="export-file">
            Download older file
          </a>
        </div>
      ) : null}
    </section>
  );
}

const FORMATS: { value: ExportFormat; label: string }[] = [
  { value: "csv", label: "CSV" },
  { value: "xlsx", label: "Excel" },
];

/** CSV or Excel (.xlsx): the same rows, the format only chooses the file. */
function FormatChoice({ value, onChange, disabled }: { value: ExportFormat; onChange: (f: ExportFormat) => void; disabled: boolean }) {
  return (
    <fieldset className="flex items-center gap-3 text-sm text-slate-700" disabled={disabled}>
      <legend className="sr-only">File format</legend>
      {FORMATS.map((f) => (
        <label key={f.value} className="flex items-center gap-1.5">
          <input type="radio" name="export-format" value={f.value} checked={value === f.value} onChange={() => onChange(f.value)} />
          {f.label}
        </label>
      ))}
    </fieldset>
  );
}
