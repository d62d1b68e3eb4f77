import { z } from "zod";
import { MAX_ID } from "@/lib/validation/id";
import { SUBSCRIPTION_STATUSES } from "./filters";

// A bulk change of subscribers: which ones (a selection of ids, or every subscriber matching the
// list's filters, as the list's address spells them) and what changes (the status, the
// mandatory flag, or deletion: administrators only). One schema for the confirmation page, the
// action and the job.

export const MAX_SELECTION = 100;

export const bulkTargetSchema = z.union([
  z.object({ ids: z.array(z.number().int().min(1).max(MAX_ID)).min(1, "Select at least one subscriber.").max(MAX_SELECTION) }).strict(),
  z.object({ filters: z.record(z.string(), z.string()) }).strict(),
]);
export type BulkTarget = z.output<typeof bulkTargetSchema>;

export const bulkChangeSchema = z.union([
  z.object({ subscription_status: z.enum(SUBSCRIPTION_STATUSES) }).strict(),
  z.object({ is_mandatory: z.boolean() }).strict(),
  z.object({ delete: z.literal(true) }).strict(),
]);
export type BulkChange = z.output<typeof bulkChangeSchema>;

export const bulkRequestSchema = z.object({ target: bulkTargetSchema, change: bulkChangeSchema });
export type BulkRequest = z.input<typeof bulkRequestSchema>;

/** The change menu's values (`change=status:active`, `mandatory:true`, `delete`) as a change. */
export function changeFromChoice(choice: string | undefined): BulkChange | null {
  if (!choice) return null;
  const [kind, value] = choice.split(":");
  if (kind === "status" && (SUBSCRIPTION_STATUSES as readonly string[]).includes(value ?? "")) {
    return { subscription_status: value as (typeof SUBSCRIPTION_STATUSES)[number] };
  }
  if (kind === "mandatory" && (value === "true" || value === "false")) return { is_mandatory: value === "true" };
  if (kind === "delete" && value === undefined) return { delete: true };
  return null;
}

export const describeChange = (c: BulkChange): string =>
  "delete" in c ? "delete them" : "subscription_status" in c ? `set the status to ${c.subscription_status}` : `set mandatory to ${c.is_mandatory ? "yes" : "no"}`;
