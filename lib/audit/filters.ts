import { z } from "zod";
import { checkRange, dateParam, optionParam, pageParam, sortParam, textParam } from "@/lib/list/params";
import { AUDIT_ACTIONS } from "./actions";

export const AUDIT_SORT_COLUMNS = ["at", "action", "actor_email"] as const;
export const AUDIT_FILTER_KEYS = ["action", "actor", "entity_id", "ip", "at_from", "at_to"] as const;

export const auditFiltersSchema = z
  .object({
    page: pageParam,
    sort: sortParam(AUDIT_SORT_COLUMNS, "-at"),
    action: optionParam(AUDIT_ACTIONS, "action"),
    actor: textParam,
    entity_id: textParam,
    ip: textParam,
    at_from: dateParam,
    at_to: dateParam,
  })
  .superRefine((value, ctx) => checkRange(value, ctx, "at_from", "at_to"));

export type AuditFilters = z.output<typeof auditFiltersSchema>;
