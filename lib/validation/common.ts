import { z } from "zod";

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
 * The own keys of `value` that are not in `allowed`: what a body names that it must not. Own keys
 * only, checked against a Set: `key in object` would take "constructor", "toString" or
 * "__proto__" for known names (they are inherited from Object.prototype), and a filter that
 * passes the check and is then dropped widens a query to every row.
 */
export function keysNotIn(value: object, allowed: ReadonlySet<string>): string[] {
  return Object.keys(value).filter((key) => !allowed.has(key));
}

/** Control characters (NUL and friends) have no place in names or filters; PostgreSQL refuses NUL. */
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
export const CONTROL_CHARACTERS_MESSAGE = "Remove the control characters from this value.";

// Days (YYYY-MM-DD), in filters and in records. PostgreSQL has no year 0 (JavaScript does) and
// the two calendars disagree before 1582; no subscriber travels and no record was made outside
// these years, so a day beyond them is a typing mistake or a probe: a clear 400, never SQL.
const FIRST_DAY = "1900-01-01";
const LAST_DAY = "2100-12-31";
export const DAY_FORMAT_MESSAGE = "Use a date as YYYY-MM-DD.";
export const DAY_RANGE_MESSAGE = `Use a date between ${FIRST_DAY} and ${LAST_DAY}.`;

/** `YYYY-MM-DD` that names a day of the calendar (no 2026-02-30). */
export function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(value);
}

/** A calendar day the console takes: between FIRST_DAY and LAST_DAY. */
export const isDayInRange = (value: string) => value >= FIRST_DAY && value <= LAST_DAY;
