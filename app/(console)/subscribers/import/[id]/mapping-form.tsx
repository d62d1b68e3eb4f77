"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { buttonClass } from "@/components/ui/button-styles";
import { Field } from "@/components/ui/field";
import { IMPORT_FIELDS, type ImportField } from "@/lib/subscribers/fields";
import { previewImportAction, startImportAction } from "../actions";
import { callAction } from "@/components/ui/call-action";
import { useFieldLabels } from "../field-labels-client";

type Props = {
  id: string;
  headers: string[];
  mapping: (ImportField | null)[];
  worksheets: string[];
  worksheet: string | null;
  sheetName: string | null;
  defaultSheet: string;
  canStart: boolean;
};

/** The column mapping (each column: a field, or ignored), the worksheet and sheet; preview again, or start. */
export function MappingForm(props: Props) {
  const router = useRouter();
  const t = useTranslations("import.mapping");
  const label = useFieldLabels();
  const [mapping, setMapping] = useState(props.mapping);
  const [worksheet, setWorksheet] = useState(props.worksheet);
  const [sheetName, setSheetName] = useState(props.sheetName ?? "");
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const [pending, startTransition] = useTransition();
  const changed = JSON.stringify(mapping) !== JSON.stringify(props.mapping) || worksheet !== props.worksheet || sheetName !== (props.sheetName ?? "");

  const preview = () =>
    startTransition(async () => {
      const result = await callAction(() => previewImportAction({ id: props.id, mapping, worksheet: worksheet ?? undefined, sheet_name: sheetName || undefined }));
      if (!result) return setMessage({ error: true, text: t("previewOffline") });
      setMessage(result.ok ? { error: false, text: result.message ?? t("previewUpdated") } : { error: true, text: result.formError ?? t("previewFailed") });
      router.refresh();
    });
  const start = () =>
    startTransition(async () => {
      const result = await callAction(() => startImportAction({ id: props.id }));
      if (!result) return setMessage({ error: true, text: t("startOffline") });
      if (!result.ok) setMessage({ error: true, text: result.formError ?? t("startFailed") });
      router.refresh();
    });

  return (
    <form
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        preview();
      }}
    >
      {props.worksheets.length > 1 ? (
        <Field label={t("worksheet")}>
          {(control) => (
            <select {...control} value={worksheet ?? props.worksheets[0]} onChange={(e) => setWorksheet(e.target.value)} className={`${control.className} max-w-sm`}>
              {props.worksheets.map((w) => (
                <option key={w}>{w}</option>
              ))}
            </select>
          )}
        </Field>
      ) : null}
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">{t("columns")}</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {props.headers.map((header, i) => (
            <label key={`${i}-${header}`} className="flex items-center justify-between gap-3 rounded-md border border-slate-200 px-3 py-2 text-sm">
              <bdi className="truncate font-mono text-xs" title={header}>
                {header || t("unnamed", { number: i + 1 })}
              </bdi>
              <select
                aria-label={t("fieldFor", { column: header || i + 1 })}
                value={mapping[i] ?? ""}
                onChange={(e) => setMapping(mapping.map((m, j) => (j === i ? ((e.target.value || null) as ImportField | null) : m)))}
                className="rounded-md border border-slate-300 px-2 py-1 text-sm"
              >
                <option value="">{t("ignore")}</option>
                {IMPORT_FIELDS.map((f) => (
                  <option key={f} value={f}>
                    {label(f)}
                  </option>
                ))}
              </select>
            </label>
          ))}
        </div>
      </fieldset>
      <Field label={t("sheetName")}>
        {(control) => <input {...control} value={sheetName} onChange={(e) => setSheetName(e.target.value)} maxLength={100} placeholder={props.defaultSheet} className={`${control.className} max-w-sm`} />}
      </Field>
      {message ? (
        <p role={message.error ? "alert" : "status"} className={`text-sm ${message.error ? "text-red-700" : "text-slate-600"}`}>
          {message.text}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={buttonClass.secondary} disabled={pending || !changed}>
          {t("update")}
        </button>
        <button type="button" className={buttonClass.primary} disabled={pending || changed || !props.canStart} onClick={start}>
          {t("start")}
        </button>
      </div>
      {changed ? <p className="text-xs text-slate-500">{t("changed")}</p> : null}
    </form>
  );
}
