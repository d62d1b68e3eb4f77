import { scopeConditions, type BranchScope } from "@/lib/auth/scope";
import { config } from "@/lib/config";
import { sql, type Statement } from "@/lib/db/sql";
import { endOfDayExclusive, startOfDay } from "@/lib/list/params";
import { contains, whereClause } from "@/lib/list/sql";
import type { BranchFilters } from "./filters";

/**
 * The user's scope over `branches b`: the one predicate every read of branches starts with (lib/auth/scope.ts);
 * branches in the trash are no one's (docs/decisions/0031-trash.md).
 */
export const branchScopeConditions = (scope: BranchScope): Statement[] => [sql`b.deleted_at IS NULL`, ...scopeConditions(scope, sql`b.id`)];

/** The WHERE clause of every branch list read (rows and count), over `branches b`. */
export function branchWhere(scope: BranchScope, f: Partial<Omit<BranchFilters, "page" | "sort">>): Statement {
  const tz = config().CONSOLE_TIME_ZONE;
  const c: Statement[] = branchScopeConditions(scope);
  if (f.id !== undefined) c.push(sql`b.id = ${f.id}`);
  if (f.name) c.push(contains(sql`b.name`, f.name));
  if (f.created_from) c.push(sql`b.created_at >= ${startOfDay(f.created_from, tz)}`);
  if (f.created_to) c.push(sql`b.created_at < ${endOfDayExclusive(f.created_to, tz)}`);
  if (f.updated_from) c.push(sql`b.updated_at >= ${startOfDay(f.updated_from, tz)}`);
  if (f.updated_to) c.push(sql`b.updated_at < ${endOfDayExclusive(f.updated_to, tz)}`);
  return whereClause(c);
}
