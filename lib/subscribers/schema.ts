import { z } from "zod";
import { isCalendarDay, isDayInRange } from "@/lib/validation/common";
import { MAX_ID } from "@/lib/validation/id";
import { safeText } from "@/lib/validation/text";
import { SUBSCRIPTION_STATUSES } from "./filters";
import { MOBILE_CHARACTERS, normaliseMobile } from "./phone";

// The subscriber creation form: react-hook-form validates with it in the browser, the server
// action and POST /api/v1/subscribers parse it again. Unknown keys are stripped, so an
// `is_duplicate` sent by a client never reaches the database: the server computes it.
//
// Email: stored trimmed, as typed; "the same email" compares trimmed and lower-cased (emailKey).
// Mobile: the schema checks its characters; the number is normalised to E.164 with the
// country's ISO code by normaliseMobile, in the browser (subscriberFormSchema) and again, with
// the country read from the database, by createSubscriber.

/** A person's name: the console's rule for typed text (lib/validation/text.ts), then trimmed. */
const name = (label: string) =>
  safeText(`Enter the ${label}.`)
    .trim()
    .min(1, `Enter the ${label}.`)
    .max(100, "Use at most 100 characters.");

const optionalId = (what: string) =>
  z
    .number({ message: `Choose a ${what} from the list.` })
    .int(`Choose a ${what} from the list.`)
    .min(1, `Choose a ${what} from the list.`)
    .max(MAX_ID, `Choose a ${what} from the list.`)
    .nullish()
    .transform((v) => v ?? null);

const isDay = (s: string) => isCalendarDay(s) && isDayInRange(s);

export const subscriberInputSchema = z.object({
  first_name: name("first name"),
  last_name: name("last name"),
  email: z
    .string({ message: "Enter an email address." })
    .trim()
    .min(1, "Enter an email address.")
    .max(254, "Use at most 254 characters.")
    .pipe(z.email("Enter a valid email address, like name@example.com.")),
  mobile: z
    .string({ message: "Enter a mobile number." })
    .trim()
    .min(1, "Enter a mobile number.")
    .max(32, "Use at most 32 characters.")
    .regex(MOBILE_CHARACTERS, "Use digits, spaces, +, -, ( and ) only."),
  branch_id: optionalId("branch"),
  country_id: optionalId("country"),
  travel_date: z
    .string({ message: "Use a date as YYYY-MM-DD." })
    .trim()
    .refine((s) => s === "" || /^\d{4}-\d{2}-\d{2}$/.test(s), "Use a date as YYYY-MM-DD.")
    .refine((s) => s === "" || isDay(s), "That date does not exist (or is not between 1900 and 2100).")
    .nullish()
    .transform((v) => v || null),
  sheet_name: safeText("Enter a sheet name.")
    .trim()
    .max(100, "Use at most 100 characters.")
    .nullish()
    .transform((v) => v || null),
  subscription_status: z.enum(SUBSCRIPTION_STATUSES, {
    message: `Choose a status: ${SUBSCRIPTION_STATUSES.join(", ")}.`,
  }),
  is_mandatory: z.boolean({ message: "Say whether the subscription is mandatory (true or false)." }),
});

export type SubscriberInput = z.input<typeof subscriberInputSchema>;
export type SubscriberValues = z.output<typeof subscriberInputSchema>;

/**
 * The form's schema: the same fields, plus the mobile number checked against the chosen
 * country (`countryCode` maps a country id to its ISO code, from the form's country list).
 */
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
});
export type DuplicateCheckInput = z.input<typeof duplicateCheckSchema>;

/** The key under which two emails are "the same": trimmed, lower-cased. */
export const emailKey = (email: string) => email.trim().toLowerCase();
