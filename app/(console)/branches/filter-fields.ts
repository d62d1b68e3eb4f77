import type { ListFilters } from "@/components/list/filter-bar";
import { BRANCH_FILTER_KEYS } from "@/lib/branches/filters";

type Key = "table.name" | "table.id" | "table.created" | "table.updated" | "toolbar.search" | "toolbar.exactId";
/** A translator of the `branches` namespace (`getTranslations("branches")`). */
export type BranchFilterWords = (key: Key) => string;

/**
 * The branch list's toolbar: the name in front, docs/API.md's other filters behind Filters. Its
 * words are the page's: `t` is getTranslations("branches") there.
 */
export function branchToolbar(t: BranchFilterWords): ListFilters {
  return {
    search: { kind: "text", name: "name", label: t("table.name"), placeholder: t("toolbar.search") },
    fields: [
      { kind: "text", name: "id", label: t("table.id"), numeric: true, placeholder: t("toolbar.exactId") },
      { kind: "dateRange", label: t("table.created"), from: "created_from", to: "created_to" },
      { kind: "dateRange", label: t("table.updated"), from: "updated_from", to: "updated_to" },
    ],
    keys: BRANCH_FILTER_KEYS,
  };
}
