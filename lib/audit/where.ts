import { config } from "@/lib/config";
import { sql, type Statement } from "@/lib/db/sql";
import { endOfDayExclusive, startOfDay } from "@/lib/list/params";
import { contains, whereClause } from "@/lib/list/sql";
import type { AuditFilters } from "./filters";

/** The WHERE clause of the audit list (rows and count), over `audit_events a`. */
export function auditWhere(f: Omit<AuditFilters, "page" | "sort">): Statement {
  const tz = config().CONSOLE_TIME_ZONE;
  const c: Statement[] = [];
  if (f.action) c.push(sql`a.action = ${f.action}`);
  if (f.actor) c.push(contains(sql`a.actor_email`, f.actor));
  if (f.entity_id) c.push(sql`a.entity_id = ${f.entity_id}`);
  if (f.ip) c.push(sql`a.ip = ${f.ip}`);
  if (f.at_from) c.push(sql`a.at >= ${startOfDay(f.at_from, tz)}`);
  if (f.at_to) c.push(sql`a.at < ${endOfDayExclusive(f.at_to, tz)}`);
  return whereClause(c);
}
