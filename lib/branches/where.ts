import { branchesOf, type BranchScope } from "@/lib/auth/scope";
import { config } from "@/lib/config";
import { sql, type Statement } from "@/lib/db/sql";
import { endOfDayExclusive, startOfDay } from "@/lib/list/params";
import { contains, whereClause } from "@/lib/list/sql";
import type { BranchFilters } from "./filters";

/** The FROM and WHERE of every branch read (rows and count): the scope's live branches `b` (lib/auth/scope.ts), filtered. */
export function branchFrom(scope: BranchScope, f: Partial<Omit<BranchFilters, "page" | "sort">>): Statement {
  const tz = config().CONSOLE_TIME_ZONE;
  const c: Statement[] = [];
  if (f.id !== undefined) c.push(sql`b.id = ${f.id}`);
  if (f.name) c.push(contains(sql`b.name`, f.name));
  if (f.created_from) c.push(sql`b.created_at >= ${startOfDay(f.created_from, tz)}`);
  if (f.created_to) c.push(sql`b.created_at < ${endOfDayExclusive(f.created_to, tz)}`);
  if (f.updated_from) c.push(sql`b.updated_at >= ${startOfDay(f.updated_from, tz)}`);
  if (f.updated_to) c.push(sql`b.updated_at < ${endOfDayExclusive(f.updated_to, tz)}`);
  return sql`FROM ${branchesOf(scope)} b ${whereClause(c)}`;
}
