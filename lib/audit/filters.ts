import { z } from "zod";
import { checkRange, dateParam, optionParam, pageParam, sortParam, textParam } from "@/lib/list/params";
import { AUDIT_ACTIONS } from "./actions";

const AUDIT_SORT_COLUMNS = ["at", "action", "actor_email"] as const;

const filterShape = {
  action: optionParam(AUDIT_ACTIONS, "action"),
  actor: textParam,
  entity_id: textParam,
  ip: textParam,
  at_from: dateParam,
  at_to: dateParam,
};

/** The filter keys (everything but page and sort), from the schema. */
export const AUDIT_FILTER_KEYS = Object.keys(filterShape) as (keyof typeof filterShape)[];

// The one parser of /audit's query.
export const auditFiltersSchema = z
  .object({ page: pageParam, sort: sortParam(AUDIT_SORT_COLUMNS, "-at"), ...filterShape })
  .superRefine((value, ctx) => checkRange(value, ctx, "at_from", "at_to"));

export type AuditFilters = z.output<typeof auditFiltersSchema>;
