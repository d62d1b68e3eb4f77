import { z } from "zod";
import { optionParam, pageParam, textParam } from "@/lib/list/params";
import { idSchema } from "@/lib/validation/id";
import { subscriberRecordSchema } from "./schema";

// The duplicates review's one parser (page and API) and the bodies of its changes (docs/API.md,
// "Duplicates: review and merge").

/** Which key a group shares: the email (trimmed, any case) or the mobile (E.164). */
export const DUPLICATE_RULES = ["email", "mobile"] as const;
export type DuplicateRule = (typeof DUPLICATE_RULES)[number];

export const duplicateFiltersSchema = z.object({
  page: pageParam,
  rule: optionParam(DUPLICATE_RULES, "rule"),
  /** The subscriber list's search, applied to the groups' members. */
  q: textParam,
});
export type DuplicateFilters = z.output<typeof duplicateFiltersSchema>;

/** The fields a group compares and a merge chooses, by their names in docs/API.md's subscriber. */
export const MERGE_FIELDS = [
  "first_name",
  "last_name",
  "email",
  "mobile",
  "branch_name",
  "country_name",
  "travel_date",
  "sheet",
  "subscription_status",
  "is_mandatory",
] as const;
export type MergeField = (typeof MERGE_FIELDS)[number];

export const MERGE_FIELD_LABEL: Record<MergeField, string> = {
  first_name: "First name",
  last_name: "Last name",
  email: "Email",
  mobile: "Mobile",
  branch_name: "Branch",
  country_name: "Country",
  travel_date: "Travel date",
  sheet: "Sheet",
  subscription_status: "Status",
  is_mandatory: "Mandatory",
};

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
export type DuplicateGroupBody = z.output<typeof duplicateGroupSchema>;

export const dismissAnswerSchema = z
  .object({
    ids: z.array(z.number().int()),
    pairs: z.array(z.tuple([z.number().int(), z.number().int()])).meta({ description: "The pairs this request stored (or, for an undo, removed)." }),
    decided_again: z.array(z.number().int()).meta({ description: "The subscribers whose is_duplicate changed." }),
  })
  .meta({ id: "DuplicateDismissal" });
