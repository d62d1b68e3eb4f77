import type { ListFilters } from "@/components/list/filter-bar";
import { TRASH_FILTER_KEYS } from "@/lib/trash/filters";

/**
 * The trash's toolbar: the name in front, the deletion days behind Filters. The kind (`kind`,
 * subscribers by default) is chosen by the page's tabs above it, which keep these filters.
 */
export const trashToolbar = (words: { name: string; namePlaceholder: string; deleted: string }): ListFilters => ({
  search: { kind: "text", name: "name", label: words.name, placeholder: words.namePlaceholder },
  fields: [{ kind: "dateRange", label: words.deleted, from: "deleted_from", to: "deleted_to" }],
  keys: TRASH_FILTER_KEYS,
});
