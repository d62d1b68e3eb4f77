"use client";

import { useLocale, useTranslations } from "next-intl";
import { useEffect, useRef, useState, useTransition } from "react";
import { notify } from "@/components/toast";
import { buttonClass } from "@/components/ui/button-styles";
import type { ActionResult } from "@/lib/actions";
import type { ExportFormat } from "@/lib/export/format";
import type { ExportStatusBody } from "@/lib/export/status";
import { ExportProgress, FileSummary, holdsCurrent, StatusBadge, useSortWords } from "./export-parts";
import { FormAlert } from "@/components/ui/form-alert";
import type { ToolbarFilters } from "@/components/list/filter-bar";
import { callAction } from "@/components/ui/call-action";
import { useFormats, useProblemWords } from "@/lib/i18n/client";

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
  /**
   * The list's toolbar, to name a file's filters as it does: the very object the toolbar gets, so
   * the page's RSC payload carries it once and refers to it here.
   */
  toolbar: ToolbarFilters;
};

/**
 * `Request export`, the state of the user's export (polled while in_queue) and `Download`. Client
 * code: the page hands it the `export` and `list` catalogue groups (ClientMessages).
 */
export function ExportPanelView({ initial, filters, sort, view, matching, request, toolbar }: Props) {
  const t = useTranslations("export");
  const f = useFormats();
  const words = useProblemWords();
  // The API says a failure's error in the Accept-Language asked: the page's (the user's choice may not be the browser's).
  const locale = useLocale();
  const fields = toolbar.search ? [toolbar.search, ...toolbar.fields] : toolbar.fields;
  const sortWords = useSortWords(fields);
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
        const response = await fetch("/api/v1/subscribers/export", { cache: "no-store", headers: { "accept-language": locale } });
        if (response.ok && active) setStatus((await response.json()) as ExportStatusBody);
      } catch {
        /* offline for a moment: the next tick tries again */
      }
    }, POLL_MS);
    return () => {
      active = false;
      clearInterval(timer);
    };
  }, [inQueue, locale]);

  const previous = useRef(state);
  useEffect(() => {
    const file = status.downloadable_file;
    if (previous.current === "in_queue" && state === "completed" && file) notify("success", t("toast.ready"), { label: t("download"), onClick: () => window.location.assign(file) });
    if (previous.current === "in_queue" && state === "failed") notify("error", t("toast.failed"));
    previous.current = state;
  }, [state, status.downloadable_file, t]);

  const requestExport = () =>
    startTransition(async () => {
      const result = await callAction(() => request({ ...filters, sort, format }));
      if (!result) return notify("error", t("toast.offline"));
      if (result.ok) {
        setStatus(result.data);
        notify("success", result.message ?? t("toast.requested"));
        return;
      }
      notify("error", result.formError ?? t("toast.notRequested"));
      const response = await fetch("/api/v1/subscribers/export", { cache: "no-store", headers: { "accept-language": locale } }).catch(() => null);
      if (response?.ok) setStatus((await response.json()) as ExportStatusBody);
    });

  const reason = inQueue ? t("reason.inQueue") : matching === null ? t("reason.invalid") : matching === 0 ? t("reason.nothing") : null;
  const file = status.file;
  const current = file !== null && holdsCurrent(file, filters, sort);

  return (
    <section aria-labelledby="export-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="space-y-1">
          <h2 id="export-heading" className="flex items-center gap-2 text-base font-semibold text-slate-900">
            {t("title")} <StatusBadge state={state} />
          </h2>
          <p className="text-sm text-slate-600">
            {matching === null
              ? t("matching.invalid")
              : matching === "unknown"
                ? t("matching.unknown")
                : matching === 0
                  ? t("matching.none")
                  : `${t(Object.keys(filters).length ? "matching.filtered" : "matching.all", { count: matching, n: f.count(matching) })} ${t("matching.order", { sort: sortWords(sort) })}`}
          </p>
          {view ? (
            <p className="text-sm text-slate-600">
              {t.rich("view", { view, name: (c) => <bdi className="font-medium text-slate-800">{c}</bdi> })}
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
            {pending ? t("requesting") : t("request")}
          </button>
          {current && status.downloadable_file ? (
            <a href={status.downloadable_file} className={buttonClass.secondary} download aria-describedby="export-file">
              {t("downloadRows", { count: file.rows, n: f.count(file.rows) })}
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
      <FormAlert message={state === "failed" && status.error ? words(status.error) : null} className="rounded-md bg-red-50 px-3 py-2" />
      {current ? (
        <FileSummary id="export-file" file={file} fields={fields} lead={inQueue ? "currentStill" : "current"} />
      ) : file && status.downloadable_file ? (
        <div role="group" aria-label={t("file.older")} className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-dashed border-slate-300 bg-slate-50 px-3 py-2">
          <FileSummary id="export-file" file={file} fields={fields} lead="older" />
          <a href={status.downloadable_file} className={buttonClass.secondary} download aria-describedby="export-file">
            {t("file.downloadOlder")}
          </a>
        </div>
      ) : null}
    </section>
  );
}

const FORMATS = [
  { value: "csv", label: "format.csv" },
  { value: "xlsx", label: "format.xlsx" },
] as const satisfies readonly { value: ExportFormat; label: string }[];

/** CSV or Excel (.xlsx): the same rows, the format only chooses the file. */
function FormatChoice({ value, onChange, disabled }: { value: ExportFormat; onChange: (f: ExportFormat) => void; disabled: boolean }) {
  const t = useTranslations("export");
  return (
    <fieldset className="flex items-center gap-3 text-sm text-slate-700" disabled={disabled}>
      <legend className="sr-only">{t("format.legend")}</legend>
      {FORMATS.map((f) => (
        <label key={f.value} className="flex items-center gap-1.5">
          <input type="radio" name="export-format" value={f.value} checked={value === f.value} onChange={() => onChange(f.value)} />
          {t(f.label)}
        </label>
      ))}
    </fieldset>
  );
}
