import { z } from "zod";
import { problem } from "@/lib/i18n/problem";
import "./zod-problems";

/** `{ field: [messages] }` from a zod error, for forms and the API's `error.fields`. */
export function fieldErrors(error: z.ZodError): Record<string, string[]> {
  // Keys come from the input ("constructor", "__proto__"…): a Map, then own keys, never `out[key]`.
  const out = new Map<string, string[]>();
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "_";
    const messages = out.get(key);
    if (messages) messages.push(issue.message);
    else out.set(key, [issue.message]);
  }
  return Object.fromEntries(out);
}

/**
 * A JSON object as sent (not a z.record copy, which drops "__proto__"), for a schema whose own
 * checks then read every member. Anything else stops the parse here (`abort`): a failed z.custom
 * otherwise lets the checks after it run on null or a number, and throw (a 500, not a 400).
 */
export function jsonObjectSchema(message: string) {
  return z.custom<Record<string, unknown>>((v) => v !== null && typeof v === "object" && !Array.isArray(v), { message, abort: true });
}

/** Own keys not in `allowed`. Never `in`: inherited names ("constructor") would pass, be dropped, and widen a query to every row. */
export const keysNotIn = (value: object, allowed: ReadonlySet<string>): string[] => Object.keys(value).filter((key) => !allowed.has(key));

/** Control characters (NUL and friends) have no place in names or filters; PostgreSQL refuses NUL. */
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
export const CONTROL_CHARACTERS_MESSAGE = problem("common.controlCharacters");

// PostgreSQL has no year 0 and the calendars disagree before 1582; a day outside these years is a mistake or a probe: 400, never SQL.
const FIRST_DAY = "1900-01-01";
const LAST_DAY = "2100-12-31";
export const DAY_FORMAT_MESSAGE = problem("common.dayFormat");
export const DAY_RANGE_MESSAGE = problem("common.dayRange", { first: FIRST_DAY, last: LAST_DAY });

/** `YYYY-MM-DD` that names a day of the calendar (no 2026-02-30). */
export function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(value);
}

/** A calendar day the console takes: between FIRST_DAY and LAST_DAY. */
export const isDayInRange = (value: string) => value >= FIRST_DAY && value <= LAST_DAY;
