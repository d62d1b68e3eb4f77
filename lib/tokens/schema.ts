import { z } from "zod";
import { problem } from "@/lib/i18n/problem";
import { safeText } from "@/lib/validation/text";
import { TOKEN_SCOPES } from "./scope";

// A new API token (docs/API.md). It expires within a year: an instant, or a `YYYY-MM-DD` date
// (the form's) that works to the end of that UTC day, so a date may end up to a day later.

export const MAX_TOKEN_DAYS = 365;
const DAY_MS = 24 * 60 * 60 * 1000;

type Expiry = { at: Date; form: "date" | "instant" };

const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function readExpiry(value: string): Expiry | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const at = new Date(`${value}T23:59:59.999Z`);
    return Number.isNaN(at.getTime()) || utcDate(at.getTime()) !== value ? null : { at, form: "date" };
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : { at, form: "instant" };
}

function withinAYear({ at, form }: Expiry, now: number): boolean {
  const latest = now + MAX_TOKEN_DAYS * DAY_MS;
  return form === "date" ? utcDate(at.getTime()) <= utcDate(latest) : at.getTime() <= latest;
}

export const tokenCreateSchema = z
  .object({
    name: safeText(problem("tokens.nameRequired")).trim().min(1, problem("tokens.nameRequired")).max(100, problem("tokens.nameTooLong", { max: 100 })),
    scope: z.enum(TOKEN_SCOPES, { message: problem("tokens.scopeInvalid") }),
    expires_at: z
      .string({ message: problem("tokens.expiryRequired") })
      .transform((value, ctx) => {
        const expiry = readExpiry(value.trim());
        if (!expiry) {
          ctx.addIssue({ code: "custom", message: problem("tokens.expiryFormat") });
          return z.NEVER;
        }
        const now = Date.now();
        if (expiry.at.getTime() <= now) {
          ctx.addIssue({ code: "custom", message: problem("tokens.expiryPast") });
          return z.NEVER;
        }
        if (!withinAYear(expiry, now)) {
          ctx.addIssue({ code: "custom", message: problem("tokens.expiryTooFar", { days: MAX_TOKEN_DAYS }) });
          return z.NEVER;
        }
        return expiry.at;
      }),
  })
  .strict();
export type TokenCreateInput = z.input<typeof tokenCreateSchema>;

/** A token as the API lists it (docs/API.md); the secret itself only in the 201. */
export const tokenSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    scope: z.enum(TOKEN_SCOPES),
    created_at: z.iso.datetime(),
    expires_at: z.iso.datetime(),
    last_used_at: z.iso.datetime().nullable(),
    revoked_at: z.iso.datetime().nullable(),
    state: z.enum(["active", "revoked", "expired"]),
  })
  .meta({ id: "Token" });
export type TokenBody = z.output<typeof tokenSchema>;

export const createdTokenSchema = tokenSchema.extend({ token: z.string().meta({ description: "The token, shown this once." }) }).meta({ id: "CreatedToken" });
