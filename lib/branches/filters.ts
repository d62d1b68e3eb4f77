import { z } from "zod";
import { checkRange, dateParam, idParam, pageParam, sortParam, textParam, viewMarkerParam } from "@/lib/list/params";

// The one parser of branch list queries (docs/API.md's names): the page, the JSON API and tests
// read filters through it.

const BRANCH_SORT_COLUMNS = ["id", "name", "created_at", "updated_at"] as const;

const filterShape = {
  id: idParam,
  name: textParam,
  created_from: dateParam,
  created_to: dateParam,
  updated_from: dateParam,
  updated_to: dateParam,
};

/** The filter keys (everything but page and sort), from the schema: "Clear filters", chips. */
export const BRANCH_FILTER_KEYS = Object.keys(filterShape) as (keyof typeof filterShape)[];

export const branchFiltersSchema = z
  .object({ page: pageParam, sort: sortParam(BRANCH_SORT_COLUMNS, "-created_at"), view: viewMarkerParam, ...filterShape })
  .superRefine((value, ctx) => {
    checkRange(value, ctx, "created_from", "created_to");
    checkRange(value, ctx, "updated_from", "updated_to");
  });

export type BranchFilters = z.output<typeof branchFiltersSchema>;
