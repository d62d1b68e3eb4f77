import { TZDate } from "@date-fns/tz";
import { z } from "zod";
import { problem } from "@/lib/i18n/problem";
import { ID_DIGITS, idSchema } from "@/lib/validation/id";
import {
  CONTROL_CHARACTERS,
  CONTROL_CHARACTERS_MESSAGE,
  DAY_FORMAT_MESSAGE,
  DAY_RANGE_MESSAGE,
  isCalendarDay,
  isDayInRange,
} from "@/lib/validation/common";

// Building blocks of every resource's filter schema, the one parser for pages, the API and exports.

export type RawParams = Record<string, string | string[] | undefined>;

/** Marks a value sent in the array form (`name[]=a`): a list no filter takes. */
const BRACKETED = Symbol("bracketed");
const ARRAY_FORM = /^([^[\]]+)\[[^\]]*\]$/;

/**
 * URLSearchParams or Next's `searchParams` object → a plain object (repeated keys → arrays). The
 * PHP-style array form (`country_name[]=x`, `country_name[0]=x`) is read as that filter given as a
 * list, which its parser refuses (400), rather than an unknown key dropped without a word.
 */
export function rawParams(input: URLSearchParams | RawParams): RawParams {
  const entries = input instanceof URLSearchParams ? [...input] : Object.entries(input).flatMap(([k, v]) => (v === undefined ? [] : [v].flat().map((x) => [k, x] as const)));
  if (!(input instanceof URLSearchParams) && !entries.some(([k]) => ARRAY_FORM.test(k))) return input;
  // A Map, then own keys: `out[key]` would hit Object.prototype for "constructor" and "__proto__".
  const out = new Map<string, string | string[]>();
  for (const [given, value] of entries) {
    const bracketed = ARRAY_FORM.exec(given);
    const key = bracketed ? bracketed[1]! : given;
    const prev = out.get(key);
    const next = prev === undefined && !bracketed ? value : [prev ?? [], value].flat();
    if (bracketed || (Array.isArray(prev) && BRACKETED in prev)) Object.defineProperty(next, BRACKETED, { value: true });
    out.set(key, next);
  }
  return Object.fromEntries(out);
}

/** One optional query value: trimmed, empty means absent, repeated is an error. */
function param<T extends z.ZodType>(schema: T) {
  return z.preprocess((value, ctx) => {
    if (Array.isArray(value)) {
      ctx.addIssue({ code: "custom", message: problem(BRACKETED in value ? "list.notAList" : "list.paramOnce") });
      return z.NEVER;
    }
    if (typeof value === "string") {
      if (CONTROL_CHARACTERS.test(value)) {
        ctx.addIssue({ code: "custom", message: CONTROL_CHARACTERS_MESSAGE });
        return z.NEVER;
      }
      const trimmed = value.trim();
      return trimmed === "" ? undefined : trimmed;
    }
    return value;
  }, schema.optional());
}

const MAX_PAGE = 1_000_000_000;

export const pageParam = param(
  z
    .string()
    .regex(/^\d+$/, problem("list.pageWhole"))
    .transform(Number)
    .refine((n) => n >= 1, problem("list.pageMin"))
    .refine((n) => n <= MAX_PAGE, problem("list.pageTooLarge")),
).transform((n) => n ?? 1);

/** An id filter: the one spelling of an id (lib/validation/id.ts). */
export const idParam = param(idSchema(problem("list.idWhole"))).meta({
  // A query value is text: the document shows the one spelling an id takes.
  override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
    for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
    Object.assign(jsonSchema, { type: "string", pattern: ID_DIGITS.source });
  },
});

export const textParam = param(z.string().max(100, problem("common.tooLong", { max: 100 })));

export function optionParam<const T extends readonly [string, ...string[]]>(values: T, name: string) {
  return param(z.enum(values, { message: problem("list.oneOf", { name, values: values.join(", ") }) }));
}

export function booleanParam(name: string) {
  return optionParam(["true", "false"], name).transform((v) => (v === undefined ? undefined : v === "true"));
}

/** A day between FIRST_DAY and LAST_DAY (lib/validation/common.ts): year 0000 never reaches SQL. */
export const dateParam = param(
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, DAY_FORMAT_MESSAGE)
    .refine(isCalendarDay, problem("list.noSuchDay"))
    .refine((s) => !isCalendarDay(s) || isDayInRange(s), DAY_RANGE_MESSAGE),
);

/** `sort=name` or `sort=-name`; anything else names the allowed columns. */
export function sortParam<const C extends readonly [string, ...string[]]>(columns: C, fallback: `${"" | "-"}${C[number]}`) {
  const allowed = columns.flatMap((c) => [c, `-${c}`]) as [string, ...string[]];
  return param(z.enum(allowed, { message: problem("list.oneOf", { name: "sort", values: allowed.join(", ") }) }))
    .transform((s) => s ?? fallback)
    .transform((s) => ({
      column: s.replace(/^-/, "") as C[number],
      direction: s.startsWith("-") ? ("desc" as const) : ("asc" as const),
    }));
}

/**
 * `view=all`: the list as it is without a default view (docs/decisions/0027-saved-views.md).
 * Read, not dropped, so any other value is refused as every bad parameter is.
 */
export const viewMarkerParam = optionParam(["all"], "view");

/** `columns=id,email`: the table's shown columns in order (a saved view's link carries them). */
export function columnsParam<const C extends readonly [string, ...string[]]>(columns: C) {
  const known = new Set<string>(columns);
  return param(
    z
      .string()
      .transform((s) => s.split(",").map((c) => c.trim()))
      .superRefine((list, ctx) => {
        const unknown = list.filter((c) => !known.has(c));
        if (unknown.length) ctx.addIssue({ code: "custom", message: problem("list.columnsAmong", { columns: columns.join(", "), unknown: unknown.join(", ") }) });
        else if (new Set(list).size !== list.length) ctx.addIssue({ code: "custom", message: problem("list.columnOnce") });
      })
      .transform((list) => list as C[number][]),
  );
}

/** A `_from`/`_to` pair must not run backwards. */
export function checkRange(value: Record<string, unknown>, ctx: z.RefinementCtx, from: string, to: string) {
  const a = value[from];
  const b = value[to];
  if (typeof a === "string" && typeof b === "string" && a > b) {
    ctx.addIssue({ code: "custom", path: [to], message: problem("list.rangeBackwards", { from, to }) });
  }
}

/** The instant a day (YYYY-MM-DD) starts in the console's time zone, or the day `days` later. */
export function startOfDay(day: string, timeZone: string, days = 0): Date {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return new Date(new TZDate(y, m - 1, d + days, timeZone).getTime());
}

/** The instant the day after `day` starts: `_to` filters are inclusive whole days. */
export const endOfDayExclusive = (day: string, timeZone: string): Date => startOfDay(day, timeZone, 1);

/** Rebuilds a query string from raw params, with changes (undefined removes a key). */
export function withParams(raw: RawParams, changes: Record<string, string | number | undefined>): string {
  const out = new URLSearchParams();
  for (const [key, value] of Object.entries(raw)) {
    if (Object.hasOwn(changes, key)) continue; // own keys: `in` would drop ?constructor=… and ?toString=…
    for (const v of [value].flat()) if (v !== undefined && v !== "") out.append(key, v);
  }
  for (const [key, value] of Object.entries(changes)) if (value !== undefined && value !== "") out.set(key, String(value));
  const text = out.toString();
  return text ? `?${text}` : "";
}
