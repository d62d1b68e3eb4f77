"use client";

import { buttonClass } from "@/components/ui/button-styles";
import type { SubscriberRecordBody } from "@/lib/subscribers/record";
import type { SubscriberInput } from "@/lib/subscribers/schema";

// What the edit form shows when someone else saved the subscriber first: both versions, field by
// field, and the two ways on. Nothing is lost and nothing is overwritten silently.

export type Conflict = { mine: SubscriberInput; theirs: SubscriberRecordBody; theirsEditable: SubscriberInput };

export const sameValue = (a: unknown, b: unknown) => (a ?? "") === (b ?? "") || JSON.stringify(a ?? "") === JSON.stringify(b ?? "");

type Names = { country: (id: number) => string | undefined; branch: (id: number) => string | undefined };
const named = (id: number | null | undefined, name: (id: number) => string | undefined) => (id ? (name(id) ?? `#${id}`) : "—");

const ROWS: { key: keyof SubscriberInput; label: string; show: (v: SubscriberInput, n: Names) => string }[] = [
  { key: "first_name", label: "First name", show: (v) => v.first_name },
  { key: "last_name", label: "Last name", show: (v) => v.last_name },
  { key: "email", label: "Email", show: (v) => v.email },
  { key: "mobile", label: "Mobile", show: (v) => v.mobile },
  { key: "country_id", label: "Country", show: (v, n) => named(v.country_id, n.country) },
  { key: "branch_id", label: "Branch", show: (v, n) => named(v.branch_id, n.branch) },
  { key: "travel_date", label: "Travel date", show: (v) => v.travel_date || "—" },
  { key: "sheet_name", label: "Sheet", show: (v) => v.sheet_name || "—" },
  { key: "subscription_status", label: "Status", show: (v) => v.subscription_status },
  { key: "is_mandatory", label: "Mandatory", show: (v) => (v.is_mandatory ? "Yes" : "No") },
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
}) {
  return (
    <section aria-labelledby="conflict-title" className="space-y-4">
      <div role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
        <h2 id="conflict-title" className="font-semibold">
          Someone changed this subscriber while you were editing
        </h2>
        <p className="mt-1">
          Your changes are not saved yet. Their version was saved at{" "}
          <time dateTime={conflict.theirs.updated_at}>{new Date(conflict.theirs.updated_at).toLocaleString("en-GB")}</time>.
        </p>
      </div>
      <div className="overflow-x-auto rounded-md border border-slate-200">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <caption className="sr-only">Your version and theirs</caption>
          <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
            <tr>
              <th scope="col" className="px-3 py-2">Field</th>
              <th scope="col" className="px-3 py-2">Yours</th>
              <th scope="col" className="px-3 py-2">Theirs (saved)</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {ROWS.map(({ key, label, show }) => {
              const youChanged = !sameValue(conflict.mine[key], original[key]);
              const theyChanged = !sameValue(conflict.theirsEditable[key], original[key]);
              const differ = !sameValue(conflict.mine[key], conflict.theirsEditable[key]);
              return (
                <tr key={key} className={differ ? "bg-amber-50/60" : undefined}>
                  <th scope="row" className="px-3 py-2 text-left font-medium text-slate-700">
                    {label}
                  </th>
                  <td className="px-3 py-2">
                    <bdi>{show(conflict.mine, names)}</bdi>
                    {youChanged ? <span className="ml-2 text-xs font-medium text-brand-700">you changed</span> : null}
                  </td>
                  <td className="px-3 py-2">
                    <bdi>{show(conflict.theirsEditable, names)}</bdi>
                    {theyChanged ? <span className="ml-2 text-xs font-medium text-amber-800">they changed</span> : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
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
