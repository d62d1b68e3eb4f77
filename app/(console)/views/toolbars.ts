import type { FilterField } from "@/components/list/filter-bar";
import type { MenuView } from "@/lib/views/menu";
import type { ViewResource } from "@/lib/views/resources";
import { branchToolbar, type BranchFilterWords } from "../branches/filter-fields";
import { subscriberToolbar, type FilterWords } from "../subscribers/filter-fields";

/** A list's toolbar fields in the reader's words (`all`: the whole catalogue's translator, `branches`: its `branches` namespace's), so a view's filters read as that list's chips. */
export function viewFields(resource: ViewResource, all: FilterWords, branches: BranchFilterWords): FilterField[] {
  const toolbar = resource === "subscribers" ? subscriberToolbar(all) : branchToolbar(branches);
  return [toolbar.search, ...toolbar.fields];
}

/** Why a view no longer opens, in the reader's words: each field's problems (`words` puts a problem key into words), else the English text. */
export function problemText(view: Pick<MenuView, "problem" | "problems">, words: (text: string) => string): string {
  if (!view.problems) return view.problem ?? "";
  return Object.entries(view.problems)
    .map(([field, list]) => (field === "_" ? list.map(words).join(" ") : `${field}: ${list.map(words).join(" ")}`))
    .join(" ");
}
