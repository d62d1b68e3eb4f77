import { sql, type Statement } from "@/lib/db/sql";
import { contains, whereClause } from "@/lib/list/sql";
import type { UserFilters } from "./filters";

/** The WHERE clause of every user list read (rows and count), over `users u`. */
export function userWhere(f: Omit<UserFilters, "page" | "sort">): Statement {
  const c: Statement[] = [];
  if (f.id !== undefined) c.push(sql`u.id = ${f.id}`);
  if (f.name) c.push(contains(sql`u.name`, f.name));
  if (f.email) c.push(contains(sql`u.email`, f.email));
  if (f.role) c.push(sql`u.role = ${f.role}::"Role"`);
  if (f.active !== undefined) c.push(sql`u.active = ${f.active}`);
  return whereClause(c);
}
