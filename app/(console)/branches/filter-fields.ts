import type { ListFilters } from "@/components/list/filter-bar";
import { BRANCH_FILTER_KEYS } from "@/lib/branches/filters";

/** The branch list's toolbar: the name in front, docs/API.md's other filters behind Filters. */
export const BRANCH_TOOLBAR: ListFilters = {
  search: { kind: "text", name: "name", label: "Name", placeholder: "Search branch names (/)" },
  fields: [
    { kind: "text", name: "id", label: "ID", numeric: true, placeholder: "Exact id" },
    { kind: "dateRange", label: "Created", from: "created_from", to: "created_to" },
    { kind: "dateRange", label: "Updated", from: "updated_from", to: "updated_to" },
  ],
  keys: BRANCH_FILTER_KEYS,
};
