import { z } from "zod";
import { checkRange, dateParam, idParam, pageParam, sortParam, textParam } from "@/lib/list/params";

// The one parser of branch list queries: the page, the JSON API and tests use it.

export const BRANCH_SORT_COLUMNS = ["id", "name", "created_at", "updated_at"] as const;

export const branchFiltersSchema = z
  .object({
    page: pageParam,
    sort: sortParam(BRANCH_SORT_COLUMNS, "-created_at"),
    id: idParam,
    name: textParam,
    created_from: dateParam,
    created_to: dateParam,
    updated_from: dateParam,
    updated_to: dateParam,
  })
  .superRefine((value, ctx) => {
    checkRange(value, ctx, "created_from", "created_to");
    checkRange(value, ctx, "updated_from", "updated_to");
  });

export type BranchFilters = z.output<typeof branchFiltersSchema>;

/** The filter keys (everything but page and sort), e.g. for "Clear filters". */
export const BRANCH_FILTER_KEYS = ["id", "name", "created_from", "created_to", "updated_from", "updated_to"] as const;
