import type { FilterField, ListFilters } from "@/components/list/filter-bar";
import { FIELD, type FieldLabelKey } from "@/lib/subscribers/fields";
import { SUBSCRIBER_FILTER_KEYS } from "@/lib/subscribers/filters";
import { statusOptions, yesNoOptions, type StatusKey, type YesNoKey } from "@/lib/subscribers/labels";

// Shared by the list and the bulk confirmation, so both name the filters the same way.

type FilterKey = "subscribers.filters.search" | "subscribers.filters.searchPlaceholder" | "subscribers.filters.contains" | "subscribers.filters.digits" | "subscribers.filters.exactId";
/** A translator of the whole catalogue (`await getTranslations()`, `useTranslations()`). */
export type FilterWords = (key: FilterKey | FieldLabelKey | StatusKey | YesNoKey) => string;

/** The toolbar's search (docs/API.md's `q`): every word in a name, the email or the mobile. */
export const subscriberSearch = (t: FilterWords) =>
  ({ kind: "text", name: "q", label: t("subscribers.filters.search"), placeholder: t("subscribers.filters.searchPlaceholder") }) as const satisfies FilterField;

/** A filter for every column, with docs/API.md's parameter names (behind the toolbar's Filters), in the reader's language. */
export function subscriberFields(t: FilterWords): FilterField[] {
  const contains = t("subscribers.filters.contains");
  const label = (name: keyof typeof FIELD) => t(FIELD[name].key);
  const status = statusOptions(t);
  const yesNo = yesNoOptions(t);
  return [
    { kind: "text", name: "first_name", label: label("first_name"), placeholder: contains },
    { kind: "text", name: "last_name", label: label("last_name"), placeholder: contains },
    { kind: "text", name: "email", label: label("email"), placeholder: contains },
    { kind: "text", name: "mobile", label: label("mobile"), placeholder: t("subscribers.filters.digits") },
    { kind: "text", name: "branch_name", label: label("branch_name"), placeholder: contains },
    { kind: "text", name: "country_name", label: label("country_name"), placeholder: contains },
    { kind: "text", name: "sheet", label: label("sheet"), placeholder: contains },
    { kind: "select", name: "subscription_status", label: label("subscription_status"), options: status },
    { kind: "select", name: "is_duplicate", label: label("is_duplicate"), options: yesNo },
    { kind: "select", name: "is_mandatory", label: label("is_mandatory"), options: yesNo },
    { kind: "dateRange", label: label("travel_date"), from: "travel_date_from", to: "travel_date_to" },
    { kind: "text", name: "id", label: label("id"), numeric: true, placeholder: t("subscribers.filters.exactId") },
    { kind: "dateRange", label: label("created_at"), from: "created_from", to: "created_to" },
  ];
}

/** The list's toolbar (ListToolbar), in the reader's language. */
export const subscriberToolbar = (t: FilterWords): ListFilters => ({ search: subscriberSearch(t), fields: subscriberFields(t), keys: SUBSCRIBER_FILTER_KEYS });
