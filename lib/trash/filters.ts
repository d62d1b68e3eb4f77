import { z } from "zod";
import { checkRange, dateParam, optionParam, pageParam, sortParam, textParam } from "@/lib/list/params";

// The one parser of trash list queries: the /trash page and GET /api/v1/trash/{kind} read it.

export const TRASH_KINDS = ["subscribers", "branches"] as const;
export type TrashKind = (typeof TRASH_KINDS)[number];

const filterShape = {
  /** Contains, in the name (a subscriber's first or last name, or email; a branch's name). */
  name: textParam,
  deleted_from: dateParam,
  deleted_to: dateParam,
};

/** The filter keys (everything but kind, page and sort): "Clear filters", chips. */
export const TRASH_FILTER_KEYS = Object.keys(filterShape) as (keyof typeof filterShape)[];

export const trashFiltersSchema = z
  .object({ page: pageParam, sort: sortParam(["deleted_at", "id"], "-deleted_at"), ...filterShape })
  .superRefine((value, ctx) => checkRange(value, ctx, "deleted_from", "deleted_to"));

/** The page's query: the API takes the kind from its path instead. */
export const trashPageSchema = z.intersection(
  z.object({ kind: optionParam(TRASH_KINDS, "kind").transform((k) => k ?? "subscribers") }),
  trashFiltersSchema,
);

export type TrashFilters = z.output<typeof trashFiltersSchema>;
