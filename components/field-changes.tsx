import { getTranslations } from "next-intl/server";
import { countryNamer } from "@/lib/countries/names";
import { getFormats } from "@/lib/i18n/server";
import type { SubscriptionStatus } from "@/lib/subscribers/filters";
import { labelField } from "@/lib/subscribers/fields";
import { STATUS_TONE, statusKey } from "@/lib/subscribers/labels";
import { ANOTHER_BRANCH } from "@/lib/subscribers/record";

type Shown = (field: string, value: unknown) => string;

/** Each changed field from its old value to the new one (the record's history, the audit log), in the reader's language. */
async function shownIn(): Promise<Shown> {
  const [all, t, f] = await Promise.all([getTranslations(), getTranslations("record.changes"), getFormats()]);
  const country = await countryNamer(f.locale);
  /** A value as the record page shows it: statuses by their labels, flags as Yes and No, days as "2 Jan 2027". */
  return (field, value) => {
    if (value === null || value === undefined || value === "") return "—";
    if (field === "subscription_status" && typeof value === "string" && Object.hasOwn(STATUS_TONE, value)) return all(statusKey(value as SubscriptionStatus));
    if (typeof value === "boolean") return value ? all("subscribers.yes") : all("subscribers.no");
    if (field === "travel_date" && typeof value === "string") return f.day(value);
    if (field === "country_name" && typeof value === "string") return country(value);
    // What a scoped reader's history says in place of a branch not theirs (lib/subscribers/record.ts).
    if (field === "branch_name" && value === ANOTHER_BRANCH) return t("anotherBranch");
    if (typeof value === "object" && value && "name" in value) return String((value as { name: unknown }).name);
    return String(value);
  };
}

/**
 * Each changed field from its old value to the new one (the record's history, the audit log);
 * `before` null: only the new values (a bulk change sets them whatever they were).
 */
export async function FieldChanges({ fields, before, after }: { fields: string[]; before: Record<string, unknown> | null; after: Record<string, unknown> | null }) {
  if (fields.length === 0) return null;
  const [t, all, shown] = await Promise.all([getTranslations("record.changes"), getTranslations(), shownIn()]);
  return (
    <ul className="mt-1 space-y-0.5 text-slate-700">
      {fields.map((f) => (
        <li key={f}>
          {t("field", { field: labelField(all, f) })}{" "}
          {before ? (
            <>
              <del className="text-slate-500">
                <bdi>{shown(f, before[f])}</bdi>
              </del>{" "}
              {t("arrow")}{" "}
            </>
          ) : null}
          <ins className="no-underline">
            <bdi>{shown(f, after?.[f])}</bdi>
          </ins>
        </li>
      ))}
    </ul>
  );
}
