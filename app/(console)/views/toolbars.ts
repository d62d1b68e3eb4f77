import type { FilterField } from "@/components/list/filter-bar";
import type { ViewResource } from "@/lib/views/resources";
import { BRANCH_TOOLBAR } from "../branches/filter-fields";
import { SUBSCRIBER_TOOLBAR } from "../subscribers/filter-fields";

/** Each list's toolbar fields, so a view's filters read as that list's chips. */
export const VIEW_FIELDS: Record<ViewResource, FilterField[]> = {
  subscribers: [SUBSCRIBER_TOOLBAR.search, ...SUBSCRIBER_TOOLBAR.fields],
  branches: [BRANCH_TOOLBAR.search, ...BRANCH_TOOLBAR.fields],
};
