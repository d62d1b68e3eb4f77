"use client";

import { useTranslations } from "next-intl";
import { buttonClass } from "@/components/ui/button-styles";
import { useFormats } from "@/lib/i18n/client";
import type { FieldName } from "@/lib/subscribers/fields";
import { labelOf, type FieldWords } from "@/lib/subscribers/merge-fields";
import type { SubscriberRecordBody } from "@/lib/subscribers/record";
import type { SubscriberInput } from "@/lib/subscribers/schema";

// Someone else saved first: both versions side by side, so nothing is overwritten silently. On a
// phone one block per field, as a third column would sit off the screen.

export type Conflict = { mine: SubscriberInput; theirs: SubscriberRecordBody; theirsEditable: SubscriberInput };

export const sameValue = (a: unknown, b: unknown) => (a ?? "") === (b ?? "") || JSON.stringify(a ?? "") === JSON.stringify(b ?? "");

type Names = { country: (id: number) => string | undefined; branch: (id: number) => string | undefined };
const named = (id: number | null | undefined, name: (id: number) => string | undefined) => (id ? (name(id) ?? `#${id}`) : "—");

/** How a value reads: the page's formats and the `conflict` catalogue's words. */
type Words = Names & { day: (value: string) => string; status: (status: SubscriberInput["subscription_status"]) => string; flag: (value: boolean) => string };

const ROWS: { key: keyof SubscriberInput; field: FieldName; show: (v: SubscriberInput, w: Words) => string }[] = [
  { key: "first_name", field: "first_name", show: (v) => v.first_name },
  { key: "last_name", field: "last_name", show: (v) => v.last_name },
  { key: "email", field: "email", show: (v) => v.email },
  { key: "mobile", field: "mobile", show: (v) => v.mobile },
  { key: "country_id", field: "country_name", show: (v, w) => named(v.country_id, w.country) },
  { key: "branch_id", field: "branch_name", show: (v, w) => named(v.branch_id, w.branch) },
  { key: "travel_date", field: "travel_date", show: (v, w) => (v.travel_date ? w.day(v.travel_date) : "—") },
  { key: "sheet_name", field: "sheet", show: (v) => v.sheet_name || "—" },
  { key: "subscription_status", field: "subscription_status", show: (v, w) => w.status(v.subscription_status) },
  { key: "is_mandatory", field: "is_mandatory", show: (v, w) => w.flag(v.is_mandatory) },
];

export function ConflictView({
  conflict,
  original,
  onKeepMine,
  onTakeTheirs,
  names,
}: {
  names: Names;
  conflict: Conflict;
  original: SubscriberInput;
  onKeepMine: () => void;
  onTakeTheirs: () => void;
  /** Unused: times read in the console's zone through useFormats(). */
  timeZone?: string;
}) {
  const t = useTranslations("conflict");
  // The `fields` namespace is the field catalogue's (lib/subscribers/fields.ts): read here, never written.
  const labels = useTranslations("fields") as unknown as FieldWords;
  const f = useFormats();
  const words: Words = { ...names, day: f.day, status: (status) => t("status", { status }), flag: (value) => (value ? t("yes") : t("no")) };
  const you = <span className="ms-2 inline-block whitespace-nowrap text-xs font-medium text-brand-700">{t("youChanged")}</span>;
  const they = <span className="ms-2 inline-block whitespace-nowrap text-xs font-medium text-amber-800">{t("theyChanged")}</span>;
  // Each side's value, marked when it differs from the version the edit started from.
  const rows = ROWS.map(({ key, field, show }) => ({
    key,
    label: labelOf(labels, field),
    mine: (
      <>
        <bdi dir={key === "mobile" ? "ltr" : undefined}>{show(conflict.mine, words)}</bdi>
        {sameValue(conflict.mine[key], original[key]) ? null : you}
      </>
    ),
    theirs: (
      <>
        <bdi dir={key === "mobile" ? "ltr" : undefined}>{show(conflict.theirsEditable, words)}</bdi>
        {sameValue(conflict.theirsEditable[key], original[key]) ? null : they}
      </>
    ),
    differ: !sameValue(conflict.mine[key], conflict.theirsEditable[key]),
  }));
  return (
    <section aria-labelledby="conflict-title" className="space-y-4">
      <div role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
        <h2 id="conflict-title" className="font-semibold">
          {t("title")}
        </h2>
        <p className="mt-1">
          {t.rich("notSaved", {
            at: f.dateTime(new Date(conflict.theirs.updated_at), { seconds: true }),
            time: (chunks) => <time dateTime={conflict.theirs.updated_at}>{chunks}</time>,
          })}
        </p>
      </div>
      <div className="hidden rounded-md border border-slate-200 sm:block">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <caption className="sr-only">{t("caption")}</caption>
          <thead className="bg-slate-50 text-start text-xs font-semibold uppercase tracking-wide text-slate-600">
            <tr>
              <th scope="col" className="px-3 py-2">{t("field")}</th>
              <th scope="col" className="px-3 py-2">{t("yours")}</th>
              <th scope="col" className="px-3 py-2">{t("theirs")}</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((r) => (
              <tr key={r.key} className={r.differ ? "bg-amber-50/60" : undefined}>
                <th scope="row" className="px-3 py-2 text-start font-medium text-slate-700">
                  {r.label}
                </th>
                <td className="px-3 py-2 [overflow-wrap:anywhere]">{r.mine}</td>
                <td className="px-3 py-2 [overflow-wrap:anywhere]">{r.theirs}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul aria-label={t("caption")} className="divide-y divide-slate-100 rounded-md border border-slate-200 text-sm sm:hidden">
        {rows.map((r) => (
          <li key={r.key} aria-label={r.label} className={`px-3 py-2 ${r.differ ? "bg-amber-50/60" : ""}`}>
            <p className="font-medium text-slate-700">{r.label}</p>
            <dl className="mt-1 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5">
              <dt className="text-xs text-slate-500">{t("yours")}</dt>
              <dd className="[overflow-wrap:anywhere]">{r.mine}</dd>
              <dt className="text-xs text-slate-500">{t("theirs")}</dt>
              <dd className="[overflow-wrap:anywhere]">{r.theirs}</dd>
            </dl>
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-3">
        <button type="button" className={buttonClass.primary} onClick={onKeepMine}>
          {t("keepMine")}
        </button>
        <button type="button" className={buttonClass.secondary} onClick={onTakeTheirs}>
          {t("takeTheirs")}
        </button>
      </div>
    </section>
  );
}
