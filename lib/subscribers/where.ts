import { branchesOf, LIVE_BRANCHES, subscribersOf, type BranchScope } from "@/lib/auth/scope";
import { config } from "@/lib/config";
import { countryCodesNamed } from "@/lib/countries/local-names";
import { endOfDayExclusive, startOfDay } from "@/lib/list/params";
import { contains, containsPattern, trigramServes, whereClause } from "@/lib/list/sql";
import type { SubscriberFilterValues } from "./filters";
import { empty, join, sql, type Statement } from "@/lib/db/sql";

/** The joins for the names a row shows (aliases b, c, sh), shared by every read of rows over `subscribers s`; a trashed branch names none. */
export const SUBSCRIBER_JOINS = sql`LEFT JOIN ${LIVE_BRANCHES} b ON b.id = s.branch_id
  LEFT JOIN countries c ON c.id = s.country_id
  LEFT JOIN sheets sh ON sh.id = s.sheet_id`;

/** The FROM (the scope's subscribers `s`, then `joins`) and WHERE of a filtered read; names are matched in their small tables first, so the big one is filtered by indexed ids. */
export function subscriberFrom(scope: BranchScope, f: SubscriberFilterValues, joins = empty): Statement {
  return sql`FROM ${subscribersOf(scope)} s ${joins} ${whereClause(subscriberConditions(scope, f))}`;
}

/** Numbers are stored in E.164: "+44 7700-900" matches as "+447700900". */
const mobileDigits = (mobile: string) => mobile.replace(/[\s().-]/g, "");

/** Whether a text filter has no trigram to look up, so finding its rows reads the whole table (queries.ts treats those apart). */
export function readsEveryRow(f: SubscriberFilterValues): boolean {
  const texts = [f.first_name, f.last_name, f.email, f.mobile === undefined ? undefined : mobileDigits(f.mobile), ...searchWords(f.q)];
  return texts.some((t) => t !== undefined && !trigramServes(t));
}

/** The search's words (at most 5; spaces and commas separate them). */
const searchWords = (q: string | undefined): string[] => (q ? q.split(/[\s,]+/).filter(Boolean).slice(0, 5) : []);

/** Each word in a name, the email or (with digits) the mobile; an OR of trigram-indexed columns, so their bitmaps combine. */
function searchCondition(q: string): Statement[] {
  return searchWords(q).map((word) => {
    const digits = mobileDigits(word).replace(/^\+/, "");
    const columns = [contains(sql`s.first_name`, word), contains(sql`s.last_name`, word), contains(sql`s.email`, word)];
    if (/^\d+$/.test(digits)) columns.push(sql`s.mobile LIKE ${containsPattern(digits)}`);
    return sql`(${join(columns, " OR ")})`;
  });
}

/** Whether any filter is given; `beyondCounts`: any but status and flags (whose totals are kept by triggers). */
export function isFiltered(f: SubscriberFilterValues, { beyondCounts = false } = {}): boolean {
  const rest = beyondCounts ? { ...f, subscription_status: undefined, is_duplicate: undefined, is_mandatory: undefined } : f;
  return subscriberConditions(null, rest).length > 0;
}

/** The filters' conditions over the scope's subscribers `s`, one per filter given (ANDed by subscriberFrom). */
export function subscriberConditions(scope: BranchScope | null, f: SubscriberFilterValues): Statement[] {
  const tz = config().CONSOLE_TIME_ZONE;
  const c: Statement[] = [];
  if (f.q) c.push(...searchCondition(f.q));
  if (f.id !== undefined) c.push(sql`s.id = ${f.id}`);
  if (f.first_name) c.push(contains(sql`s.first_name`, f.first_name));
  if (f.last_name) c.push(contains(sql`s.last_name`, f.last_name));
  if (f.email) c.push(contains(sql`s.email`, f.email));
  if (f.mobile) c.push(sql`s.mobile LIKE ${containsPattern(mobileDigits(f.mobile))}`);
  // The scope's branches only: another branch's name finds no branch, as a name no branch has, in the same time.
  if (f.branch_name) {
    c.push(sql`s.branch_id IN (SELECT fb.id FROM ${scope ? branchesOf(scope) : LIVE_BRANCHES} fb WHERE ${contains(sql`fb.name`, f.branch_name)})`);
  }
  if (f.country_name) {
    const named = sql`${contains(sql`name`, f.country_name)} OR code = ANY(${countryCodesNamed(f.country_name)}::text[])`;
    c.push(sql`s.country_id IN (SELECT id FROM countries WHERE ${named})`);
  }
  if (f.sheet) c.push(sql`s.sheet_id IN (SELECT id FROM sheets WHERE ${contains(sql`name`, f.sheet)})`);
  if (f.subscription_status) {
    c.push(sql`s.subscription_status = ${f.subscription_status}::"SubscriptionStatus"`);
  }
  if (f.is_duplicate !== undefined) c.push(sql`s.is_duplicate = ${f.is_duplicate}`);
  if (f.is_mandatory !== undefined) c.push(sql`s.is_mandatory = ${f.is_mandatory}`);
  if (f.travel_date_from) c.push(sql`s.travel_date >= ${f.travel_date_from}::date`);
  if (f.travel_date_to) c.push(sql`s.travel_date <= ${f.travel_date_to}::date`);
  if (f.created_from) c.push(sql`s.created_at >= ${startOfDay(f.created_from, tz)}`);
  if (f.created_to) c.push(sql`s.created_at < ${endOfDayExclusive(f.created_to, tz)}`);
  return c;
}
