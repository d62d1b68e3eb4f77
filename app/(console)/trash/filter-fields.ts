import type { ListFilters } from "@/components/list/filter-bar";
import { TRASH_FILTER_KEYS } from "@/lib/trash/filters";

/** The trash's toolbar: the name in front; the kind and the deletion days behind Filters. */
export const TRASH_TOOLBAR: ListFilters = {
  search: { kind: "text", name: "name", label: "Name", placeholder: "Search names and emails (/)" },
  fields: [
    {
      kind: "select",
      name: "kind",
      label: "Kind",
      options: [
        { value: "subscribers", label: "Subscribers" },
        { value: "branches", label: "Branches" },
      ],
    },
    { kind: "dateRange", label: "Deleted", from: "deleted_from", to: "deleted_to" },
  ],
  keys: ["kind", ...TRASH_FILTER_KEYS],
};
