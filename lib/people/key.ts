import { z } from "zod";
import { problem } from "@/lib/i18n/problem";
import { normaliseMobile } from "@/lib/subscribers/phone";

// Who a personal-data request means, as the API's query and body and the record page's actions give it.

/** Who is meant: an email, a mobile (E.164, or with + and the country code), or one subscriber record's id (its email and mobile). */
export const personKeySchema = z
  .object({
    email: z.string().trim().max(254).email(problem("people.email")).optional(),
    mobile: z
      .string()
      .trim()
      .max(32)
      .optional()
      .transform((v, ctx) => {
        if (v === undefined || v === "") return undefined;
        const m = normaliseMobile(v);
        if (!m.ok) {
          ctx.addIssue({ code: "custom", message: m.message });
          return z.NEVER;
        }
        return m.e164;
      }),
    subscriber_id: z.coerce.number().int(problem("people.subscriberId")).positive(problem("people.subscriberId")).max(2 ** 31 - 1).optional(),
  })
  .refine((k) => k.email !== undefined || k.mobile !== undefined || k.subscriber_id !== undefined, {
    message: problem("people.keyMissing"),
    path: ["email"],
  });

/** Who is meant, once parsed (the mobile in E.164). */
export type PersonKey = { email?: string; mobile?: string; subscriber_id?: number };

