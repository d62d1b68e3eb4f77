import { config } from "@/lib/config";
import { Prisma } from "@/lib/generated/prisma/client";
import { endOfDayExclusive, startOfDay } from "@/lib/list/params";
import { containsPattern, whereClause } from "@/lib/list/sql";
import type { SubscriberFilterValues } from "./filters";

/**
 * The WHERE clause of every subscriber read (list, count, export), over `subscribers s`.
 * Branch, country and sheet names are matched in their own small tables first, so the big
 * table is filtered by indexed ids.
 */
export function subscriberWhere(f: SubscriberFilterValues): Prisma.Sql {
  return whereClause(subscriberConditions(f));
}

/** The filters' conditions, one per filter given (ANDed by subscriberWhere). */
export function subscriberConditions(f: SubscriberFilterValues): Prisma.Sql[] {
  const tz = config.timeZone;
  const c: Prisma.Sql[] = [];
  if (f.id !== undefined) c.push(Prisma.sql`s.id = ${f.id}`);
  if (f.first_name) c.push(Prisma.sql`s.first_name ILIKE ${containsPattern(f.first_name)}`);
  if (f.last_name) c.push(Prisma.sql`s.last_name ILIKE ${containsPattern(f.last_name)}`);
  if (f.email) c.push(Prisma.sql`s.email ILIKE ${containsPattern(f.email)}`);
  if (f.mobile) {
    // Numbers are stored in E.164: "+44 7700-900" matches as "+447700900".
    const digits = f.mobile.replace(/[\s().-]/g, "");
    c.push(Prisma.sql`s.mobile LIKE ${containsPattern(digits)}`);
  }
  if (f.branch_name) {
    c.push(Prisma.sql`s.branch_id IN (SELECT id FROM branches WHERE name ILIKE ${containsPattern(f.branch_name)})`);
  }
  if (f.country_name) {
    c.push(Prisma.sql`s.country_id IN (SELECT id FROM countries WHERE name ILIKE ${containsPattern(f.country_name)})`);
  }
  if (f.sheet) c.push(Prisma.sql`s.sheet_id IN (SELECT id FROM sheets WHERE name ILIKE ${containsPattern(f.sheet)})`);
  if (f.subscription_status) {
    c.push(Prisma.sql`s.subscription_status = ${f.subscription_status}::"SubscriptionStatus"`);
  }
  if (f.is_duplicate !== undefined) c.push(Prisma.sql`s.is_duplicate = ${f.is_duplicate}`);
  if (f.is_mandatory !== undefined) c.push(Prisma.sql`s.is_mandatory = ${f.is_mandatory}`);
  if (f.travel_date_from) c.push(Prisma.sql`s.travel_date >= ${f.travel_date_from}::date`);
  if (f.travel_date_to) c.push(Prisma.sql`s.travel_date <= ${f.travel_date_to}::date`);
  if (f.created_from) c.push(Prisma.sql`s.created_at >= ${startOfDay(f.created_from, tz)}`);
  if (f.created_to) c.push(Prisma.sql`s.created_at < ${endOfDayExclusive(f.created_to, tz)}`);
  return c;
}
