import { z } from "zod";
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

const ids = (min: number, max: number, what: string) =>
  z
    .array(idSchema(), { message: `Send ids as a list of subscriber ids.` })
    .min(min, `Name at least ${min} subscribers ${what}.`)
    .max(max, `Name at most ${max} subscribers at once.`)
    .refine((list) => new Set(list).size === list.length, "Name each subscriber only once.");

/** POST …/duplicates/dismiss and …/dismiss/undo: the subscribers that are (or are again) not duplicates of each other. */
export const dismissBodySchema = z.object({ ids: ids(2, MAX_DISMISS, "that are not duplicates of each other") }).strict();

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
const plainObject = (what: string, documented: z.ZodType) => documentedAs(documented, jsonObjectSchema(`Send ${what} as one JSON object.`));
const mergeVersion = versionSchema(`Send each updated_at as you read it (${VERSION_FORMAT}).`);

/** POST /api/v1/subscribers/merge (docs/API.md): the survivor, the merged, whose value each field keeps, and the versions read. */
export const mergeBodySchema = z
  .object({
    survivor_id: idSchema("survivor_id must be a subscriber id."),
    merged_ids: z.array(idSchema(), { message: "Send merged_ids as a list of subscriber ids." }).min(1, "Name at least one subscriber to merge.").max(MAX_DISMISS - 1, `Merge at most ${MAX_DISMISS - 1} subscribers at once.`),
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
    if (body.merged_ids.includes(body.survivor_id)) ctx.addIssue({ code: "custom", path: ["merged_ids"], message: "The subscriber that stays cannot be among the merged." });
    else if (ids.size !== body.merged_ids.length + 1) ctx.addIssue({ code: "custom", path: ["merged_ids"], message: "Name each subscriber only once." });
    for (const [field, id] of Object.entries(body.values ?? {})) {
      if (!MERGE_FIELD_SET.has(field)) ctx.addIssue({ code: "custom", path: ["values", field.slice(0, 40)], message: `"${field.slice(0, 40)}" is not a subscriber field you can choose (use: ${MERGE_FIELDS.join(", ")}).` });
      else if (typeof id !== "number" || !ids.has(id)) ctx.addIssue({ code: "custom", path: ["values", field], message: "Name one of the merge's subscribers by its id." });
    }
    for (const id of ids) {
      if (!mergeVersion.safeParse(body.updated_at[String(id)]).success) ctx.addIssue({ code: "custom", path: ["updated_at", String(id)], message: `Send subscriber ${id}'s updated_at as you read it (${VERSION_FORMAT}).` });
    }
    const extra = Object.keys(body.updated_at).filter((key) => !ids.has(Number(key)) || String(Number(key)) !== key);
    if (extra.length) ctx.addIssue({ code: "custom", path: ["updated_at"], message: `Not a subscriber of this merge: ${extra.map((k) => k.slice(0, 20)).join(", ")}.` });
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
  ids: z.string({ message: "Name the subscribers to merge." }).transform((text, ctx) => {
    const list = text.split(",").map((id) => parseId(id.trim()));
    const ids = list.filter((id) => id !== null);
    if (ids.length !== list.length || ids.length < 2 || ids.length > MAX_DISMISS || new Set(ids).size !== ids.length) {
      ctx.addIssue({ code: "custom", message: `Name 2 to ${MAX_DISMISS} different subscribers by their ids, separated by commas.` });
      return z.NEVER;
    }
    return ids;
  }),
});
