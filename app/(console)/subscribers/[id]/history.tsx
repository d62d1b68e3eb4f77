import Link from "next/link";
import { FieldChanges } from "@/components/field-changes";
import { formatDateTime } from "@/lib/format";
import { FIELD, fieldLabel, type FieldName } from "@/lib/subscribers/fields";
import { changedFields, type HistoryEntry } from "@/lib/subscribers/record";

// The subscriber's history from the audit log: who did what, when, and each changed field from
// its old value to the new one.

const ACTION: Record<string, string> = {
  "subscriber.create": "created it",
  "subscriber.update": "changed it",
  "subscriber.bulk_change": "changed it with others",
  "subscriber.not_duplicates": "marked it as not a duplicate of others",
  "subscriber.duplicates_again": "took back “not duplicates” for it and others",
  "subscriber.merge": "merged duplicates into it",
  "subscriber.merge_undo": "undid a merge into it",
};

/** What a merge's event lists of its fields: the values it chose, and the duplicate flag it decided again. */
const mergeShows = (f: string) => Object.hasOwn(FIELD, f) && (FIELD[f as FieldName].edit || f === "is_duplicate");

/** Which records a merge took in (or its undo gave back), and whose value each chosen field took. */
function MergeNote({ after }: { after: Record<string, unknown> | null }) {
  const ids = (list: unknown) => (Array.isArray(list) ? list.map((id) => `#${String(id)}`).join(", ") : "");
  const values = Object.entries((after?.values as Record<string, unknown> | undefined) ?? {});
  return (
    <p className="mt-1 text-slate-700">
      {after?.merged ? `From ${ids(after.merged)} (now in the trash)` : `${ids(after?.restored)} back from the trash`}
      {values.length ? `; values taken: ${values.map(([f, id]) => `${fieldLabel(f)} from #${String(id)}`).join(", ")}` : ""}.
    </p>
  );
}

const LINK = "font-medium text-brand-700 hover:underline";

/** `merges`: the merges the page lists above (with their Undo), which a merge's entry links to. */
export function History({ entries, merges }: { entries: HistoryEntry[]; merges: string[] }) {
  if (entries.length === 0) return <p className="mt-2 text-sm text-slate-600">Nothing recorded yet.</p>;
  return (
    <ol className="mt-3 space-y-3">
      {entries.map((e) => {
        const bulk = e.action === "subscriber.bulk_change";
        // A merge's event also names the records and the choices: its field list is the fields only.
        const merge = e.action === "subscriber.merge" || e.action === "subscriber.merge_undo";
        const fields = bulk ? Object.keys((e.after?.change as Record<string, unknown>) ?? {}) : changedFields(e.before, e.after).filter((f) => !merge || mergeShows(f));
        return (
          <li key={e.id} className="border-s-2 border-slate-200 ps-3 text-sm">
            <p>
              <time dateTime={new Date(e.at).toISOString()} className="text-slate-500">
                {formatDateTime(new Date(e.at), { seconds: true })}
              </time>{" "}
              <bdi className="font-medium text-slate-900">{e.actor_email ?? "someone"}</bdi> {ACTION[e.action] ?? e.action}
              {bulk && e.entity === "bulk_change" ? (
                <>
                  {" "}
                  (<Link href={`/subscribers/bulk/${e.entity_id}`} className={LINK}>the bulk change</Link>)
                </>
              ) : null}
              {e.action === "subscriber.merge" && merges.includes(String(e.after?.merge_id)) ? (
                <>
                  {" "}
                  (<Link href={`#merge-${String(e.after?.merge_id)}`} className={LINK}>the merge</Link>)
                </>
              ) : null}
            </p>
            {merge ? <MergeNote after={e.after} /> : null}
            <FieldChanges fields={fields} before={bulk ? null : e.before} after={bulk ? (e.after?.change as Record<string, unknown>) : e.after} />
          </li>
        );
      })}
    </ol>
  );
}
