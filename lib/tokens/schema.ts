import { z } from "zod";
import { safeText } from "@/lib/validation/text";
import { TOKEN_SCOPES } from "./scope";

// A new API token (docs/API.md: `{name, scope, expires_at}`), from /account's form and from
// POST /api/v1/tokens. It expires at most a year after it is made.

export const MAX_TOKEN_DAYS = 365;
const DAY_MS = 24 * 60 * 60 * 1000;

/** `YYYY-MM-DD` (the end of that day, UTC) or an ISO 8601 instant. */
function readExpiry(value: string): Date | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const day = new Date(`${value}T23:59:59.999Z`);
    return Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== value ? null : day;
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at;
}

export const tokenCreateSchema = z
  .object({
    name: safeText("Name the token (what uses it).").trim().min(1, "Name the token (what uses it).").max(100, "Use at most 100 characters."),
    scope: z.enum(TOKEN_SCOPES, { message: "Choose read or export." }),
    expires_at: z
      .string({ message: "Give an expiry date (YYYY-MM-DD)." })
      .transform((value, ctx) => {
        const at = readExpiry(value.trim());
        if (!at) {
          ctx.addIssue({ code: "custom", message: "Give an expiry date as YYYY-MM-DD (or an ISO 8601 time)." });
          return z.NEVER;
        }
        if (at.getTime() <= Date.now()) {
          ctx.addIssue({ code: "custom", message: "The expiry must be in the future." });
          return z.NEVER;
        }
        if (at.getTime() > Date.now() + MAX_TOKEN_DAYS * DAY_MS + DAY_MS) {
          ctx.addIssue({ code: "custom", message: `A token lasts at most a year (${MAX_TOKEN_DAYS} days).` });
          return z.NEVER;
        }
        return at;
      }),
  })
  .strict();
export type TokenCreateInput = z.input<typeof tokenCreateSchema>;
