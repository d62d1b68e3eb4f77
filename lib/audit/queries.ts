import "server-only";
import { readDirection, readPage } from "@/lib/list/depth";
import { pagination, type Pagination } from "@/lib/list/pagination";
import { direction } from "@/lib/list/sql";
import { query, sql } from "@/lib/db/sql";
import type { AuditFilters } from "./filters";
import { auditWhere } from "./where";

export type AuditRow = {
  /** bigint in the table; read as text, as raw reads do with int8 (lib/db/sql.ts). */
  id: string;
  at: Date;
  actor_email: string | null;
  action: string;
  entity: string | null;
  entity_id: string | null;
  /** The user an event is about, by name (users' events keep only their id). */
  entity_name: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
  user_agent: string | null;
};

const SORT_SQL = { at: sql`a.at`, action: sql`a.action`, actor_email: sql`a.actor_email` } as const;

export async function listAuditEvents(f: AuditFilters): Promise<{ data: AuditRow[]; pagination: Pagination }> {
  const where = auditWhere(f);
  // The page's cost is bounded whatever its number (lib/list/depth.ts).
  const { data, total } = await readPage(
    f.page,
    (window) => {
      const dir = direction(readDirection(f.sort.direction, window));
      return query<AuditRow>(sql`SELECT a.id::text AS id, a.at, a.actor_email, a.action, a.entity, a.entity_id, a.before, a.after, a.ip, a.user_agent,
          -- Read per row shown (after the sort and limit), by the users' key.
          CASE WHEN a.entity = 'user' AND a.entity_id ~ '^[0-9]{1,9}$' THEN (SELECT u.name FROM users u WHERE u.id = a.entity_id::int) END AS entity_name
        FROM audit_events a ${where} ORDER BY ${SORT_SQL[f.sort.column]} ${dir}, a.id ${dir}
        LIMIT ${window.limit} OFFSET ${window.offset}`);
    },
    async () => (await query<{ total: number }>(sql`SELECT count(*)::int AS total FROM audit_events a ${where}`))[0]?.total ?? 0,
  );
  return { data, pagination: pagination(total, f.page) };
}
