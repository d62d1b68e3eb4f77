import type { FilterField, ListFilters } from "@/components/list/filter-bar";
import { FIELD } from "@/lib/subscribers/fields";
import { SUBSCRIBER_FILTER_KEYS } from "@/lib/subscribers/filters";
import { STATUS_OPTIONS, YES_NO_OPTIONS } from "@/lib/subscribers/labels";

// Shared by the list and the bulk confirmation, so both name the filters the same way.

/** The toolbar's search (docs/API.md's `q`): every word in a name, the email or the mobile. */
export const SEARCH = { kind: "text", name: "q", label: "Search", placeholder: "Name, email or mobile (/)" } as const satisfies FilterField;

/** A filter for every column, with docs/API.md's parameter names (behind the toolbar's Filters). */
export const FIELDS: FilterField[] = [
  { kind: "text", name: "first_name", label: FIELD.first_name.label, placeholder: "Contains…" },
  { kind: "text", name: "last_name", label: FIELD.last_name.label, placeholder: "Contains…" },
  { kind: "text", name: "email", label: FIELD.email.label, placeholder: "Contains…" },
  { kind: "text", name: "mobile", label: FIELD.mobile.label, placeholder: "Digits, e.g. 7400" },
  { kind: "text", name: "branch_name", label: FIELD.branch_name.label, placeholder: "Contains…" },
  { kind: "text", name: "country_name", label: FIELD.country_name.label, placeholder: "Contains…" },
  { kind: "text", name: "sheet", label: FIELD.sheet.label, placeholder: "Contains…" },
  { kind: "select", name: "subscription_status", label: FIELD.subscription_status.label, options: STATUS_OPTIONS },
  { kind: "select", name: "is_duplicate", label: FIELD.is_duplicate.label, options: YES_NO_OPTIONS },
  { kind: "select", name: "is_mandatory", label: FIELD.is_mandatory.label, options: YES_NO_OPTIONS },
  { kind: "dateRange", label: FIELD.travel_date.label, from: "travel_date_from", to: "travel_date_to" },
  { kind: "text", name: "id", label: FIELD.id.label, numeric: true, placeholder: "Exact id" },
  { kind: "dateRange", label: FIELD.created_at.label, from: "created_from", to: "created_to" },
];

/** The list's toolbar (ListToolbar). */
export const SUBSCRIBER_TOOLBAR: ListFilters = { search: SEARCH, fields: FIELDS, keys: SUBSCRIBER_FILTER_KEYS };
