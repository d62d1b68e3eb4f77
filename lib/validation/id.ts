import { z } from "zod";
import { problem } from "@/lib/i18n/problem";

// The one parser of record ids: only canonical decimal digits, since `Number()` also reads `0x36`,
// `54e0` or ` 54`, giving a record many addresses (and caches or rules keyed on the text disagree).

/** PostgreSQL's `integer` (the ids' type): nothing above it can name a row. */
export const MAX_ID = 2_147_483_647;

/** The one spelling of an id: decimal digits, no leading zero. */
export const ID_DIGITS = /^[1-9][0-9]{0,9}$/;

const ID_MESSAGE = problem("common.idInvalid");

/** The id a value names, or null. Strings must be canonical digits; numbers (JSON) whole and in range. */
export function parseId(value: unknown): number | null {
  if (typeof value === "number") return Number.isInteger(value) && value >= 1 && value <= MAX_ID ? value : null;
  if (typeof value !== "string" || !ID_DIGITS.test(value)) return null;
  const id = Number(value);
  return id <= MAX_ID ? id : null;
}

/** A record's `{id}` in an API path, for the OpenAPI document; routes read it with parseId (any other spelling: 404). */
export const idPathParams = z.object({
  id: z.string().regex(ID_DIGITS).meta({ description: "The record's id: digits, no leading zero." }),
});

/** parseId as a zod schema (action inputs, query values), with a message of the caller's. */
export function idSchema(message = ID_MESSAGE) {
  return z.union([z.string(), z.number()], { message }).transform((value, ctx) => {
    const id = parseId(value);
    if (id === null) {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return id;
  });
}
