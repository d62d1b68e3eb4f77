import "server-only";
import { config } from "@/lib/config";
import { readDirection, readPage } from "@/lib/list/depth";
import { pagination, type Pagination } from "@/lib/list/pagination";
import { endOfDayExclusive, startOfDay } from "@/lib/list/params";
import { contains, direction, whereClause } from "@/lib/list/sql";
import type { AuditFilters } from "./filters";
import { query, sql, type Statement } from "@/lib/db/sql";

export type AuditRow = {
  id: bigint;
  at: Date;
  actor_email: string | null;
  action: string;
  entity: string | null;
  entity_id: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
  user_agent: string | null;
};

const SORT_SQL = { at: sql`a.at`, action: sql`a.action`, actor_email: sql`a.actor_email` } as const;

export async function listAuditEvents(f: AuditFilters): Promise<{ data: AuditRow[]; pagination: Pagination }> {
  const tz = config().CONSOLE_TIME_ZONE;
  const c: Statement[] = [];
  if (f.action) c.push(sql`a.action = ${f.action}`);
  if (f.actor) c.push(contains(sql`a.actor_email`, f.actor));
  if (f.entity_id) c.push(sql`a.entity_id = ${f.entity_id}`);
  if (f.ip) c.push(sql`a.ip = ${f.ip}`);
  if (f.at_from) c.push(sql`a.at >= ${startOfDay(f.at_from, tz)}`);
  if (f.at_to) c.push(sql`a.at < ${endOfDayExclusive(f.at_to, tz)}`);
  const where = whereClause(c);
  // The page's cost is bounded whatever its number (lib/list/depth.ts).
  const { data, total } = await readPage(
    f.page,
    (window) => {
      const dir = direction(readDirection(f.sort.direction, window));
      return query<AuditRow>(sql`SELECT a.id, a.at, a.actor_email, a.action, a.entity, a.entity_id, a.before, a.after, a.ip, a.user_agent
        FROM audit_events a ${where} ORDER BY ${SORT_SQL[f.sort.column]} ${dir}, a.id ${dir}
        LIMIT ${window.limit} OFFSET ${window.offset}`);
    },
    async () => (await query<{ total: number }>(sql`SELECT count(*)::int AS total FROM audit_events a ${where}`))[0]?.total ?? 0,
  );
  return { data, pagination: pagination(total, f.page) };
}
