import type { FilterField } from "@/components/list/filter-bar";
import { problem } from "@/lib/i18n/problem";
import type { MenuView } from "@/lib/views/menu";
import type { ViewResource } from "@/lib/views/resources";
import { branchToolbar, type BranchFilterWords } from "../branches/filter-fields";
import { subscriberToolbar, type FilterWords } from "../subscribers/filter-fields";

/** A list's toolbar fields in the reader's words (`all`: the whole catalogue's translator, `branches`: its `branches` namespace's), so a view's filters read as that list's chips. */
export function viewFields(resource: ViewResource, all: FilterWords, branches: BranchFilterWords): FilterField[] {
  const toolbar = resource === "subscribers" ? subscriberToolbar(all) : branchToolbar(branches);
  return [toolbar.search, ...toolbar.fields];
}

/** A toolbar field's label by the query key it reads (a date range's two keys name the range). */
function labelOf(fields: readonly FilterField[], key: string): string | undefined {
  return fields.find((f) => (f.kind === "dateRange" ? f.from === key || f.to === key : f.name === key))?.label;
}

/**
 * Why a view no longer opens, in the reader's words (`words` puts a problem key into words): each
 * field's problems after its label (`fields`: the list's toolbar; a key it lacks is named as it is), else the English text.
 */
export function problemText(view: Pick<MenuView, "problem" | "problems">, words: (text: string) => string, fields: readonly FilterField[] = []): string {
  if (!view.problems) return view.problem ?? "";
  return Object.entries(view.problems)
    .map(([field, list]) => {
      const said = list.map(words).join(" ");
      return field === "_" ? said : words(problem("views.fieldRefused", { field: labelOf(fields, field) ?? field, problems: said }));
    })
    .join(" ");
}
