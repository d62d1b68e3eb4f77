"use client";

import { buttonClass } from "@/components/ui/button-styles";
import { FIELD } from "@/lib/subscribers/fields";
import { formatDateTimeIn, formatDay } from "@/lib/date-time-format";
import { STATUS_LABEL } from "@/lib/subscribers/labels";
import type { SubscriberRecordBody } from "@/lib/subscribers/record";
import type { SubscriberInput } from "@/lib/subscribers/schema";

// Someone else saved first: both versions side by side, so nothing is overwritten silently. On a
// phone one block per field, as a third column would sit off the screen.

export type Conflict = { mine: SubscriberInput; theirs: SubscriberRecordBody; theirsEditable: SubscriberInput };

export const sameValue = (a: unknown, b: unknown) => (a ?? "") === (b ?? "") || JSON.stringify(a ?? "") === JSON.stringify(b ?? "");

type Names = { country: (id: number) => string | undefined; branch: (id: number) => string | undefined };
const named = (id: number | null | undefined, name: (id: number) => string | undefined) => (id ? (name(id) ?? `#${id}`) : "—");

const ROWS: { key: keyof SubscriberInput; label: string; show: (v: SubscriberInput, n: Names) => string }[] = [
  { key: "first_name", label: FIELD.first_name.label, show: (v) => v.first_name },
  { key: "last_name", label: FIELD.last_name.label, show: (v) => v.last_name },
  { key: "email", label: FIELD.email.label, show: (v) => v.email },
  { key: "mobile", label: FIELD.mobile.label, show: (v) => v.mobile },
  { key: "country_id", label: FIELD.country_name.label, show: (v, n) => named(v.country_id, n.country) },
  { key: "branch_id", label: FIELD.branch_name.label, show: (v, n) => named(v.branch_id, n.branch) },
  { key: "travel_date", label: FIELD.travel_date.label, show: (v) => (v.travel_date ? formatDay(v.travel_date) : "—") },
  { key: "sheet_name", label: FIELD.sheet.label, show: (v) => v.sheet_name || "—" },
  { key: "subscription_status", label: FIELD.subscription_status.label, show: (v) => STATUS_LABEL[v.subscription_status] },
  { key: "is_mandatory", label: FIELD.is_mandatory.label, show: (v) => (v.is_mandatory ? "Yes" : "No") },
];

export function ConflictView({
  conflict,
  original,
  onKeepMine,
  onTakeTheirs,
  names,
  timeZone,
}: {
  names: Names;
  conflict: Conflict;
  original: SubscriberInput;
  onKeepMine: () => void;
  onTakeTheirs: () => void;
  /** The console's time zone (CONSOLE_TIME_ZONE): times read as everywhere else in the console. */
  timeZone: string;
}) {
  const you = <span className="ms-2 inline-block whitespace-nowrap text-xs font-medium text-brand-700">you changed</span>;
  const they = <span className="ms-2 inline-block whitespace-nowrap text-xs font-medium text-amber-800">they changed</span>;
  // Each side's value, marked when it differs from the version the edit started from.
  const rows = ROWS.map(({ key, label, show }) => ({
    key,
    label,
    mine: (
      <>
        <bdi>{show(conflict.mine, names)}</bdi>
        {sameValue(conflict.mine[key], original[key]) ? null : you}
      </>
    ),
    theirs: (
      <>
        <bdi>{show(conflict.theirsEditable, names)}</bdi>
        {sameValue(conflict.theirsEditable[key], original[key]) ? null : they}
      </>
    ),
    differ: !sameValue(conflict.mine[key], conflict.theirsEditable[key]),
  }));
  return (
    <section aria-labelledby="conflict-title" className="space-y-4">
      <div role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
        <h2 id="conflict-title" className="font-semibold">
          Someone changed this subscriber while you were editing
        </h2>
        <p className="mt-1">
          Your changes are not saved yet. Their version was saved at{" "}
          <time dateTime={conflict.theirs.updated_at}>{formatDateTimeIn(new Date(conflict.theirs.updated_at), timeZone, { seconds: true })}</time>.
        </p>
      </div>
      <div className="hidden rounded-md border border-slate-200 sm:block">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <caption className="sr-only">Your version and theirs</caption>
          <thead className="bg-slate-50 text-start text-xs font-semibold uppercase tracking-wide text-slate-600">
            <tr>
              <th scope="col" className="px-3 py-2">Field</th>
              <th scope="col" className="px-3 py-2">Yours</th>
              <th scope="col" className="px-3 py-2">Theirs (saved)</th>
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
      <ul aria-label="Your version and theirs" className="divide-y divide-slate-100 rounded-md border border-slate-200 text-sm sm:hidden">
        {rows.map((r) => (
          <li key={r.key} aria-label={r.label} className={`px-3 py-2 ${r.differ ? "bg-amber-50/60" : ""}`}>
            <p className="font-medium text-slate-700">{r.label}</p>
            <dl className="mt-1 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5">
              <dt className="text-xs text-slate-500">Yours</dt>
              <dd className="[overflow-wrap:anywhere]">{r.mine}</dd>
              <dt className="text-xs text-slate-500">Theirs (saved)</dt>
              <dd className="[overflow-wrap:anywhere]">{r.theirs}</dd>
            </dl>
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-3">
        <button type="button" className={buttonClass.primary} onClick={onKeepMine}>
          Put my changes on their version
        </button>
        <button type="button" className={buttonClass.secondary} onClick={onTakeTheirs}>
          Discard my changes
        </button>
      </div>
    </section>
  );
}
