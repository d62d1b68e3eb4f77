import type { ListFilters } from "@/components/list/filter-bar";
import { TRASH_FILTER_KEYS } from "@/lib/trash/filters";

/**
 * The trash's toolbar: the name in front, the deletion days behind Filters. The kind (`kind`,
 * subscribers by default) is chosen by the page's tabs above it, which keep these filters.
 */
export const TRASH_TOOLBAR: ListFilters = {
  search: { kind: "text", name: "name", label: "Name", placeholder: "Search names and emails (/)" },
  fields: [{ kind: "dateRange", label: "Deleted", from: "deleted_from", to: "deleted_to" }],
  keys: TRASH_FILTER_KEYS,
};
