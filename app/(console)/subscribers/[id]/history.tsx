import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { FieldChanges } from "@/components/field-changes";
import { getFormats } from "@/lib/i18n/server";
import { FIELD, labelField, type FieldName } from "@/lib/subscribers/fields";
import { changedFields, type HistoryEntry } from "@/lib/subscribers/record";

// The subscriber's history from the audit log: who did what, when, and each changed field from
// its old value to the new one.

/** Each action's catalogue key (record.history.actions). */
const ACTION = {
  "subscriber.create": "create",
  "subscriber.update": "update",
  "subscriber.bulk_change": "bulkChange",
  "subscriber.not_duplicates": "notDuplicates",
  "subscriber.duplicates_again": "duplicatesAgain",
  "subscriber.merge": "merge",
  "subscriber.merge_undo": "mergeUndo",
  "subscriber.delete": "delete",
  "subscriber.restore": "restore",
} as const;

type Words = { t: Awaited<ReturnType<typeof getTranslations<"record.history">>>; all: Parameters<typeof labelField>[0] };

/** What a merge's event lists of its fields: the values it chose, and the duplicate flag it decided again. */
const mergeShows = (f: string) => Object.hasOwn(FIELD, f) && (FIELD[f as FieldName].edit || f === "is_duplicate");

/** Which records a merge took in (or its undo gave back), and whose value each chosen field took. */
function MergeNote({ after, words: { t, all } }: { after: Record<string, unknown> | null; words: Words }) {
  const separator = t("listSeparator");
  const ids = (list: unknown) => (Array.isArray(list) ? list.map((id) => `#${String(id)}`).join(separator) : "");
  const values = Object.entries((after?.values as Record<string, unknown> | undefined) ?? {});
  const taken = values.map(([f, id]) => t("valueFrom", { field: labelField(all, f), id: String(id) })).join(separator);
  return (
    <p className="mt-1 text-slate-700">
      {after?.merged
        ? t("mergedFrom", { ids: ids(after.merged), taken, values: values.length })
        : t("restored", { ids: ids(after?.restored), taken, values: values.length })}
    </p>
  );
}

const LINK = "font-medium text-brand-700 hover:underline";

/** `merges`: the merges the page lists above (with their Undo), which a merge's entry links to. */
export async function History({ entries, merges }: { entries: HistoryEntry[]; merges: string[] }) {
  const [t, all, f] = await Promise.all([getTranslations("record.history"), getTranslations(), getFormats()]);
  if (entries.length === 0) return <p className="mt-2 text-sm text-slate-600">{t("empty")}</p>;
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
                {f.dateTime(new Date(e.at), { seconds: true })}
              </time>{" "}
              {t.rich(Object.hasOwn(ACTION, e.action) ? `actions.${ACTION[e.action as keyof typeof ACTION]}` : "actions.other", {
                who: e.actor_email ?? t("someone"),
                action: e.action,
                actor: (c) => <bdi className="font-medium text-slate-900">{c}</bdi>,
              })}
              {bulk && e.entity === "bulk_change" ? (
                <>
                  {" "}
                  (<Link href={`/subscribers/bulk/${e.entity_id}`} className={LINK}>{t("theBulkChange")}</Link>)
                </>
              ) : null}
              {e.action === "subscriber.merge" && merges.includes(String(e.after?.merge_id)) ? (
                <>
                  {" "}
                  (<Link href={`#merge-${String(e.after?.merge_id)}`} className={LINK}>{t("theMerge")}</Link>)
                </>
              ) : null}
            </p>
            {merge ? <MergeNote after={e.after} words={{ t, all }} /> : null}
            <FieldChanges fields={fields} before={bulk ? null : e.before} after={bulk ? (e.after?.change as Record<string, unknown>) : e.after} />
          </li>
        );
      })}
    </ol>
  );
}
