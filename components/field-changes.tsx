import { getTranslations } from "next-intl/server";
import { countryNamer } from "@/lib/countries/names";
import { getFormats } from "@/lib/i18n/server";
import type { SubscriptionStatus } from "@/lib/subscribers/filters";
import { shownErased } from "@/lib/people/erased-words";
import { isField, labelField } from "@/lib/subscribers/fields";
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
    // What a person's erasure left (`[erased]`) in the reader's language.
    return typeof value === "string" ? shownErased(value, all) : String(value);
  };
}

/** A changed field's name: a subscriber's by its form label, another record's (a branch, a webhook, a view) by the audit's. */
async function labels(): Promise<(field: string) => string> {
  const all = await getTranslations();
  const audit = all as unknown as { (key: string): string; has: (key: string) => boolean };
  return (field) => {
    if (isField(field)) return labelField(all, field);
    const key = `audit.field.${field.replace(/_(\w)/g, (_, c: string) => c.toUpperCase())}`;
    return audit.has(key) ? audit(key) : field.replaceAll("_", " ");
  };
}

/**
 * Each changed field from its old value to the new one (the record's history, the audit log);
 * `before` null: only the new values (a bulk change sets them whatever they were).
 */
export async function FieldChanges({ fields, before, after }: { fields: string[]; before: Record<string, unknown> | null; after: Record<string, unknown> | null }) {
  if (fields.length === 0) return null;
  const [t, labelOf, shown] = await Promise.all([getTranslations("record.changes"), labels(), shownIn()]);
  return (
    <ul className="mt-1 space-y-0.5 text-slate-700">
      {fields.map((f) => (
        <li key={f}>
          {t("field", { field: labelOf(f) })}{" "}
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
