import { z } from "zod";
import { problem } from "@/lib/i18n/problem";
import { jsonObjectSchema } from "@/lib/validation/common";
import { documentedAs } from "@/lib/validation/documented";
import { idSchema, parseId } from "@/lib/validation/id";
import { DUPLICATE_RULES } from "./duplicate-filters";
import { MERGE_FIELDS, type MergeField } from "./fields";
import { subscriberRecordSchema, VERSION_FORMAT, versionSchema } from "./schema";

// The bodies and answers of the duplicates review's changes: "not duplicates" and merges (docs/API.md).

export { MERGE_FIELDS, type MergeField };

/** At most this many subscribers are marked "not duplicates" at once (every pair of them is stored). */
export const MAX_DISMISS = 50;

const ids = (min: number, max: number) =>
  z
    .array(idSchema(), { message: problem("duplicates.idsList") })
    .min(min, problem("duplicates.tooFew", { min }))
    .max(max, problem("duplicates.tooMany", { max }))
    .refine((list) => new Set(list).size === list.length, problem("duplicates.eachOnce"));

/** POST …/duplicates/dismiss and …/dismiss/undo: the subscribers that are (or are again) not duplicates of each other. */
export const dismissBodySchema = z.object({ ids: ids(2, MAX_DISMISS) }).strict();

/** A group of subscribers sharing a key, newest first (docs/API.md). */
export const duplicateGroupSchema = z
  .object({
    key: z.string().meta({ description: "The email (lower-cased) or the mobile (E.164) the members share." }),
    rule: z.enum(DUPLICATE_RULES),
    subscribers: z.array(subscriberRecordSchema),
  })
  .meta({ id: "DuplicateGroup" });

export const dismissAnswerSchema = z
  .object({
    ids: z.array(z.number().int()),
    pairs: z.array(z.tuple([z.number().int(), z.number().int()])).meta({ description: "The pairs this request stored (or, for an undo, removed)." }),
    decided_again: z.array(z.number().int()).meta({ description: "The subscribers whose is_duplicate changed." }),
  })
  .meta({ id: "DuplicateDismissal" });

const MERGE_FIELD_SET: ReadonlySet<string> = new Set(MERGE_FIELDS);
/** The object as sent, so every member is checked (lib/validation/common.ts); documented as `documented`. */
const plainObject = (what: string, documented: z.ZodType) => documentedAs(documented, jsonObjectSchema(problem("merge.oneObject", { what })));
const mergeVersion = versionSchema(problem("merge.version", { format: VERSION_FORMAT }));

/** POST /api/v1/subscribers/merge (docs/API.md): the survivor, the merged, whose value each field keeps, and the versions read. */
export const mergeBodySchema = z
  .object({
    survivor_id: idSchema(problem("merge.survivorId")),
    merged_ids: z.array(idSchema(), { message: problem("merge.mergedIds") }).min(1, problem("merge.atLeastOne")).max(MAX_DISMISS - 1, problem("merge.tooMany", { max: MAX_DISMISS - 1 })),
    values: plainObject(
      "values",
      z.partialRecord(z.enum(MERGE_FIELDS), z.number().int()).meta({ description: "{field: subscriber id}: the fields the survivor takes from another member of the merge (its own value otherwise)." }),
    ).optional(),
    updated_at: plainObject(
      "updated_at",
      z.record(z.string().regex(/^[1-9][0-9]*$/), z.iso.datetime({ offset: true })).meta({ description: "{subscriber id: updated_at as read}, for every subscriber of the merge." }),
    ),
  })
  .strict()
  .superRefine((body, ctx) => {
    const ids = new Set([body.survivor_id, ...body.merged_ids]);
    if (body.merged_ids.includes(body.survivor_id)) ctx.addIssue({ code: "custom", path: ["merged_ids"], message: problem("merge.survivorMerged") });
    else if (ids.size !== body.merged_ids.length + 1) ctx.addIssue({ code: "custom", path: ["merged_ids"], message: problem("duplicates.eachOnce") });
    for (const [field, id] of Object.entries(body.values ?? {})) {
      if (!MERGE_FIELD_SET.has(field)) ctx.addIssue({ code: "custom", path: ["values", field.slice(0, 40)], message: problem("merge.notAField", { field: field.slice(0, 40), fields: MERGE_FIELDS.join(", ") }) });
      else if (typeof id !== "number" || !ids.has(id)) ctx.addIssue({ code: "custom", path: ["values", field], message: problem("merge.notAMember") });
    }
    for (const id of ids) {
      if (!mergeVersion.safeParse(body.updated_at[String(id)]).success) ctx.addIssue({ code: "custom", path: ["updated_at", String(id)], message: problem("merge.memberVersion", { id, format: VERSION_FORMAT }) });
    }
    const extra = Object.keys(body.updated_at).filter((key) => !ids.has(Number(key)) || String(Number(key)) !== key);
    if (extra.length) ctx.addIssue({ code: "custom", path: ["updated_at"], message: problem("merge.notInMerge", { ids: extra.map((k) => k.slice(0, 20)).join(", ") }) });
  })
  .transform((body) => ({
    survivor_id: body.survivor_id,
    merged_ids: [...body.merged_ids].sort((a, b) => a - b),
    values: (body.values ?? {}) as Partial<Record<MergeField, number>>,
    versions: new Map([body.survivor_id, ...body.merged_ids].map((id) => [id, new Date(body.updated_at[String(id)] as string)])),
  }));
export type MergeInput = z.output<typeof mergeBodySchema>;

export const mergeAnswerSchema = z
  .object({ survivor: subscriberRecordSchema, merge_id: z.string().meta({ description: "Names the merge for its undo." }) })
  .meta({ id: "SubscriberMerge" });

/** The merge page's address: `ids=12,34,56`, the group's members. */
export const mergePageSchema = z.object({
  ids: z.string({ message: problem("merge.pageIds") }).transform((text, ctx) => {
    const list = text.split(",").map((id) => parseId(id.trim()));
    const ids = list.filter((id) => id !== null);
    if (ids.length !== list.length || ids.length < 2 || ids.length > MAX_DISMISS || new Set(ids).size !== ids.length) {
      ctx.addIssue({ code: "custom", message: problem("merge.pageIdsRange", { max: MAX_DISMISS }) });
      return z.NEVER;
    }
    return ids;
  }),
});
