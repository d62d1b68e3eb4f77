import type { ListFilters } from "@/components/list/filter-bar";
import { AUDIT_ACTION_OPTIONS } from "@/lib/audit/describe";
import { AUDIT_FILTER_KEYS } from "@/lib/audit/filters";

/** The audit log's toolbar: who did it in front, docs/API.md's other filters behind Filters. */
export const AUDIT_TOOLBAR: ListFilters = {
  search: { kind: "text", name: "actor", label: "Who", placeholder: "Search by email (/)" },
  fields: [
    { kind: "select", name: "action", label: "Action", options: AUDIT_ACTION_OPTIONS },
    { kind: "text", name: "entity_id", label: "Record id", placeholder: "Exact id" },
    { kind: "text", name: "ip", label: "From", placeholder: "Exact IP address" },
    { kind: "dateRange", label: "When", from: "at_from", to: "at_to" },
  ],
  keys: AUDIT_FILTER_KEYS,
};
