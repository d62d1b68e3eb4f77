import { z } from "zod";
import { problem, type ProblemKey } from "@/lib/i18n/problem";
import { isCalendarDay, isDayInRange, jsonObjectSchema, keysNotIn } from "@/lib/validation/common";
import { MAX_ID } from "@/lib/validation/id";
import { documentedAs } from "@/lib/validation/documented";
import { safeText } from "@/lib/validation/text";
import { SUBSCRIPTION_STATUSES } from "./filters";
import { MOBILE_CHARACTERS, normaliseMobile } from "./phone";

// The creation form's schema, run in the browser and again on the server. Unknown keys are
// stripped, so a client's `is_duplicate` never reaches the database; mobiles are normalised to
// E.164 by normaliseMobile, again on the server with the country read from the database.

/** A person's name: the console's rule for typed text (lib/validation/text.ts), then trimmed. */
const name = (required: ProblemKey) =>
  safeText(problem(required))
    .trim()
    .min(1, problem(required))
    .max(100, problem("common.tooLong", { max: 100 }));

const optionalId = (choose: ProblemKey) =>
  z
    .number({ message: problem(choose) })
    .int(problem(choose))
    .min(1, problem(choose))
    .max(MAX_ID, problem(choose))
    .nullish()
    .transform((v) => v ?? null);

const isDay = (s: string) => isCalendarDay(s) && isDayInRange(s);

export const subscriberInputSchema = z.object({
  first_name: name("subscribers.firstNameRequired"),
  last_name: name("subscribers.lastNameRequired"),
  email: z
    .string({ message: problem("subscribers.emailRequired") })
    .trim()
    .min(1, problem("subscribers.emailRequired"))
    .max(254, problem("common.tooLong", { max: 254 }))
    .pipe(z.email(problem("subscribers.emailInvalid"))),
  mobile: z
    .string({ message: problem("subscribers.mobileRequired") })
    .trim()
    .min(1, problem("subscribers.mobileRequired"))
    .max(32, problem("common.tooLong", { max: 32 }))
    .regex(MOBILE_CHARACTERS, problem("subscribers.mobileCharacters")),
  branch_id: optionalId("subscribers.branchChoose"),
  country_id: optionalId("subscribers.countryChoose"),
  travel_date: z
    .string({ message: problem("subscribers.dateFormat") })
    .trim()
    .refine((s) => s === "" || /^\d{4}-\d{2}-\d{2}$/.test(s), problem("subscribers.dateFormat"))
    .refine((s) => s === "" || isDay(s), problem("subscribers.dateMissing"))
    .nullish()
    .transform((v) => v || null),
  sheet_name: safeText(problem("subscribers.sheetName"))
    .trim()
    .max(100, problem("common.tooLong", { max: 100 }))
    .nullish()
    .transform((v) => v || null),
  subscription_status: z.enum(SUBSCRIPTION_STATUSES, {
    message: problem("subscribers.statusChoose", { statuses: SUBSCRIPTION_STATUSES.join(", ") }),
  }),
  is_mandatory: z.boolean({ message: problem("subscribers.mandatoryBoolean") }),
});

export type SubscriberInput = z.input<typeof subscriberInputSchema>;
export type SubscriberValues = z.output<typeof subscriberInputSchema>;

/** The form's schema, plus the mobile checked against the chosen country (`countryCode`: id to ISO code). */
export function subscriberFormSchema(countryCode: (id: number) => string | undefined) {
  return subscriberInputSchema.superRefine((value, ctx) => {
    const code = value.country_id ? countryCode(value.country_id) : undefined;
    const result = normaliseMobile(value.mobile, code);
    if (!result.ok) ctx.addIssue({ code: "custom", path: ["mobile"], message: result.message });
  });
}

/** What the form asks before submitting: is this email or mobile already known? */
export const duplicateCheckSchema = z.object({
  email: z.string().trim().max(254).optional(),
  mobile: z.string().trim().max(32).optional(),
  country_id: z.number().int().min(1).max(MAX_ID).nullish(),
  before_id: z.number().int().min(1).max(MAX_ID).nullish(),
});
export type DuplicateCheckInput = z.input<typeof duplicateCheckSchema>;

/** The key under which two emails are "the same": trimmed, lower-cased. */
export const emailKey = (email: string) => email.trim().toLowerCase();

/** An ISO time with `Z` or an offset: without one it would be read in the server's zone, letting a stale edit pass. */
export const versionSchema = (message: string) => z.iso.datetime({ offset: true, message });
export const VERSION_FORMAT = "an ISO 8601 time with Z or an offset, such as 2026-11-22T09:14:05.123Z";
/** VERSION_FORMAT's example, which the catalogue's messages name (problems.subscribers). */
export const VERSION_EXAMPLE = "2026-11-22T09:14:05.123Z";

const PATCH_FIELDS = Object.keys(subscriberInputSchema.shape);
/** Members of a record answer that are the server's to decide: accepted and ignored in a PATCH. */
const SERVER_MEMBERS = new Set(["id", "is_duplicate", "created_at"]);
const NAMED_BY_ID: Record<string, string> = { branch_name: "branch_id", country_name: "country_id", sheet: "sheet_name" };
/** Every member a PATCH may name. */
const PATCH_MEMBERS: ReadonlySet<string> = new Set(["updated_at", ...PATCH_FIELDS, ...SERVER_MEMBERS]);
const patchVersion = versionSchema("updated_at");

/** What a PATCH may send, for the API's document: the creation fields, each optional, and `updated_at` (required). */
const subscriberPatchShape = subscriberInputSchema
  .partial()
  .extend({
    updated_at: patchVersion,
    id: z.unknown().optional().meta({ description: "Accepted and ignored: the server's to decide." }),
    is_duplicate: z.unknown().optional().meta({ description: "Accepted and ignored: the server computes it." }),
    created_at: z.unknown().optional().meta({ description: "Accepted and ignored." }),
  })
  .strict();

/** PATCH /api/v1/subscribers/{id}: unknown members refused by name (a typo must not silently change nothing); server members ignored. */
export const subscriberPatchSchema = documentedAs(
  subscriberPatchShape,
  // The body as sent, so every member is checked (lib/validation/common.ts).
  jsonObjectSchema(problem("subscribers.patchObject")),
)
  .superRefine((body, ctx) => {
    for (const key of keysNotIn(body, PATCH_MEMBERS)) {
      const field = key.slice(0, 40);
      const message = Object.hasOwn(NAMED_BY_ID, key) ? problem("subscribers.patchUnknownUse", { key: field, use: NAMED_BY_ID[key]! }) : problem("subscribers.patchUnknown", { key: field });
      ctx.addIssue({ code: "custom", path: [key], message });
    }
    if (!patchVersion.safeParse(body.updated_at).success) {
      ctx.addIssue({ code: "custom", path: ["updated_at"], message: problem("subscribers.patchVersion", { example: VERSION_EXAMPLE }) });
    }
  })
  .transform((body) => {
    const changes: Record<string, unknown> = {};
    for (const key of PATCH_FIELDS) if (Object.hasOwn(body, key)) changes[key] = body[key];
    return { version: new Date(body.updated_at as string), changes: changes as Partial<SubscriberInput> };
  });

/** The edit form's action: the creation fields, the subscriber and the version it was read at. */
export const subscriberEditSchema = subscriberInputSchema.extend({
  id: z.number().int().min(1).max(MAX_ID),
  version: versionSchema(problem("subscribers.versionFormat", { example: VERSION_EXAMPLE })),
});

/** A subscriber as the API lists it (docs/API.md). */
export const subscriberSchema = z
  .object({
    id: z.number().int(),
    first_name: z.string(),
    last_name: z.string(),
    branch_name: z.string().nullable(),
    country_name: z.string().nullable(),
    email: z.string(),
    mobile: z.string(),
    travel_date: z.iso.date().nullable(),
    sheet: z.object({ name: z.string() }).nullable(),
    subscription_status: z.enum(SUBSCRIPTION_STATUSES),
    is_duplicate: z.boolean(),
    is_mandatory: z.boolean(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "Subscriber" });
export type SubscriberBody = z.output<typeof subscriberSchema>;

/** A subscriber's record answer: with `updated_at`, the version a PATCH names. */
export const subscriberRecordSchema = subscriberSchema.extend({ updated_at: z.iso.datetime() }).meta({ id: "SubscriberRecord" });
export type SubscriberRecordBody = z.output<typeof subscriberRecordSchema>;
