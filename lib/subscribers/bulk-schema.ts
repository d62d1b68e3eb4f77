import { z } from "zod";
import { problem } from "@/lib/i18n/problem";
import { keysNotIn } from "@/lib/validation/common";
import { MAX_ID } from "@/lib/validation/id";
import { SUBSCRIBER_FILTER_KEYS, SUBSCRIPTION_STATUSES } from "./filters";

// A bulk change's target (ids, or the list's filters as its address spells them) and change;
// one schema for the confirmation page, the action and the job.

export const MAX_SELECTION = 100;

/** The names a target's filters may use: the list's filters, and its page and sort (ignored). */
export const BULK_FILTER_NAMES: ReadonlySet<string> = new Set([...SUBSCRIBER_FILTER_KEYS, "page", "sort"]);

/** The filters; an unknown name is refused before zod's record (which silently drops "__proto__") could drop it and widen the change to everyone. */
const filtersSchema = z.preprocess((value, ctx) => {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const unknown = keysNotIn(value, BULK_FILTER_NAMES);
  for (const key of unknown) ctx.addIssue({ code: "custom", path: [key], message: problem("bulk.noSuchFilter", { name: JSON.stringify(key.slice(0, 40)) }) });
  return unknown.length ? z.NEVER : value;
}, z.record(z.string(), z.string()));

export type BulkTarget = { ids: number[] } | { filters: Record<string, string> };

/** Either `ids` or `filters` (one object, not a union: a problem is then named by its path, "target.filters.emial"). */
export const bulkTargetSchema = z
  .object({
    ids: z.array(z.number().int().min(1).max(MAX_ID)).min(1, problem("bulk.selectAtLeastOne")).max(MAX_SELECTION).optional(),
    filters: filtersSchema.optional(),
  })
  .strict()
  .superRefine((t, ctx) => {
    if ((t.ids === undefined) === (t.filters === undefined)) ctx.addIssue({ code: "custom", message: problem("bulk.idsOrFilters") });
  })
  .transform((t): BulkTarget => (t.ids ? { ids: t.ids } : { filters: t.filters ?? {} }));

export const bulkChangeSchema = z.union([
  z.object({ subscription_status: z.enum(SUBSCRIPTION_STATUSES) }).strict(),
  z.object({ is_mandatory: z.boolean() }).strict(),
  z.object({ delete: z.literal(true) }).strict(),
]);
export type BulkChange = z.output<typeof bulkChangeSchema>;

export const bulkRequestSchema = z.object({ target: bulkTargetSchema, change: bulkChangeSchema });

/** POST /api/v1/subscribers/bulk: `{filters | ids, change}`, read as the page's request. */
export const bulkApiBodySchema = z
  .object({
    ids: z.array(z.number().int().min(1).max(MAX_ID)).min(1, problem("bulk.atLeastOneId")).max(MAX_SELECTION).optional()
      .meta({ description: `At most ${MAX_SELECTION} subscriber ids.` }),
    filters: filtersSchema.optional().meta({ description: "The list's filters as strings; `{}` means every subscriber." }),
    change: bulkChangeSchema,
  })
  .strict()
  .superRefine((b, ctx) => {
    if ((b.ids === undefined) === (b.filters === undefined)) ctx.addIssue({ code: "custom", path: ["filters"], message: problem("bulk.exactlyOne") });
  })
  .transform((b): { target: BulkTarget; change: BulkChange } => ({ target: b.ids ? { ids: b.ids } : { filters: b.filters ?? {} }, change: b.change }));

const BULK_STATUSES = ["in_queue", "running", "completed", "failed"] as const;

/** A bulk change as the API answers it (docs/API.md, Bulk changes through the API, and undo). */
export const bulkChangeRecordSchema = z
  .object({
    id: z.string(),
    status: z.enum(BULK_STATUSES),
    change: bulkChangeSchema.meta({ description: "What it changes; an undo names the change it puts back." }),
    target: z.union([z.object({ ids: z.array(z.number().int()) }), z.object({ filters: z.record(z.string(), z.string()) }), z.object({ undo_of: z.string() })]),
    matched_rows: z.number().int().meta({ description: "The rows it was aimed at when it was requested." }),
    processed_rows: z.number().int(),
    changed_rows: z.number().int(),
    skipped_rows: z.number().int().meta({ description: "An undo's rows left as they are: someone changed them after the change it undoes." }),
    error: z.string().nullable(),
    created_at: z.iso.datetime(),
    completed_at: z.iso.datetime().nullable(),
    undo_of: z.string().nullable(),
    undone_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
    undone_at: z.iso.datetime().nullable(),
    undo_id: z.string().nullable().meta({ description: "The undo of this change (running or done), if any." }),
  })
  .meta({ id: "BulkChange" });
export type BulkChangeRecord = z.output<typeof bulkChangeRecordSchema>;

/** The change menu's values (`change=status:active`, `mandatory:true`, `delete`) as a change. */
export function changeFromChoice(choice: string | undefined): BulkChange | null {
  if (!choice) return null;
  const [kind, value, ...rest] = choice.split(":");
  if (rest.length) return null;
  if (kind === "status" && (SUBSCRIPTION_STATUSES as readonly string[]).includes(value ?? "")) {
    return { subscription_status: value as (typeof SUBSCRIPTION_STATUSES)[number] };
  }
  if (kind === "mandatory" && (value === "true" || value === "false")) return { is_mandatory: value === "true" };
  if (kind === "delete" && value === undefined) return { delete: true };
  return null;
}

export const describeChange = (c: BulkChange): string =>
  "delete" in c ? "delete them" : "subscription_status" in c ? `set the status to ${c.subscription_status}` : `set mandatory to ${c.is_mandatory ? "yes" : "no"}`;
