import { formatDay } from "@/lib/date-time-format";
import type { SubscriptionStatus } from "@/lib/subscribers/filters";
import { fieldLabel } from "@/lib/subscribers/fields";
import { STATUS_LABEL } from "@/lib/subscribers/labels";

/** A value as the record page shows it: statuses by their labels, flags as Yes and No, days as "2 Jan 2027". */
const shown = (field: string, value: unknown): string => {
  if (value === null || value === undefined || value === "") return "—";
  if (field === "subscription_status" && typeof value === "string" && Object.hasOwn(STATUS_LABEL, value)) return STATUS_LABEL[value as SubscriptionStatus];
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (field === "travel_date" && typeof value === "string") return formatDay(value);
  if (typeof value === "object" && value && "name" in value) return String((value as { name: unknown }).name);
  return String(value);
};

/**
 * Each changed field from its old value to the new one (the record's history, the audit log);
 * `before` null: only the new values (a bulk change sets them whatever they were).
 */
export function FieldChanges({ fields, before, after }: { fields: string[]; before: Record<string, unknown> | null; after: Record<string, unknown> | null }) {
  if (fields.length === 0) return null;
  return (
    <ul className="mt-1 space-y-0.5 text-slate-700">
      {fields.map((f) => (
        <li key={f}>
          {fieldLabel(f)}:{" "}
          {before ? (
            <>
              <del className="text-slate-500">
                <bdi>{shown(f, before[f])}</bdi>
              </del>{" "}
              →{" "}
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
