import type { FilterField } from "@/components/list/filter-bar";
import type { MenuView } from "@/lib/views/menu";
import type { ViewResource } from "@/lib/views/resources";
import { BRANCH_TOOLBAR } from "../branches/filter-fields";
import { SUBSCRIBER_TOOLBAR } from "../subscribers/filter-fields";

/** Each list's toolbar fields, so a view's filters read as that list's chips. */
export const VIEW_FIELDS: Record<ViewResource, FilterField[]> = {
  subscribers: [SUBSCRIBER_TOOLBAR.search, ...SUBSCRIBER_TOOLBAR.fields],
  branches: [BRANCH_TOOLBAR.search, ...BRANCH_TOOLBAR.fields],
};

/** Why a view no longer opens, in the reader's words: each field's problems (`words` puts a problem key into words), else the English text. */
export function problemText(view: Pick<MenuView, "problem" | "problems">, words: (text: string) => string): string {
  if (!view.problems) return view.problem ?? "";
  return Object.entries(view.problems)
    .map(([field, list]) => (field === "_" ? list.map(words).join(" ") : `${field}: ${list.map(words).join(" ")}`))
    .join(" ");
}
