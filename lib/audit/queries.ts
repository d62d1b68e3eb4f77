import "server-only";
import { config } from "@/lib/config";
import { prisma } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { readDirection, readPage } from "@/lib/list/depth";
import { pagination, type Pagination } from "@/lib/list/pagination";
import { endOfDayExclusive, startOfDay } from "@/lib/list/params";
import { contains, direction, whereClause } from "@/lib/list/sql";
import type { AuditFilters } from "./filters";

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

const SORT_SQL = { at: Prisma.sql`a.at`, action: Prisma.sql`a.action`, actor_email: Prisma.sql`a.actor_email` } as const;

export async function listAuditEvents(f: AuditFilters): Promise<{ data: AuditRow[]; pagination: Pagination }> {
  const tz = config().CONSOLE_TIME_ZONE;
  const c: Prisma.Sql[] = [];
  if (f.action) c.push(Prisma.sql`a.action = ${f.action}`);
  if (f.actor) c.push(contains(Prisma.sql`a.actor_email`, f.actor));
  if (f.entity_id) c.push(Prisma.sql`a.entity_id = ${f.entity_id}`);
  if (f.ip) c.push(Prisma.sql`a.ip = ${f.ip}`);
  if (f.at_from) c.push(Prisma.sql`a.at >= ${startOfDay(f.at_from, tz)}`);
  if (f.at_to) c.push(Prisma.sql`a.at < ${endOfDayExclusive(f.at_to, tz)}`);
  const where = whereClause(c);
  const db = await prisma();
  // The page's cost is bounded whatever its number (lib/list/depth.ts).
  const { data, total } = await readPage(
    f.page,
    (window) => {
      const dir = direction(readDirection(f.sort.direction, window));
      return db.$queryRaw<AuditRow[]>`SELECT a.id, a.at, a.actor_email, a.action, a.entity, a.entity_id, a.before, a.after, a.ip, a.user_agent
        FROM audit_events a ${where} ORDER BY ${SORT_SQL[f.sort.column]} ${dir}, a.id ${dir}
        LIMIT ${window.limit} OFFSET ${window.offset}`;
    },
    async () => (await db.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total FROM audit_events a ${where}`)[0]?.total ?? 0,
  );
  return { data, pagination: pagination(total, f.page) };
}
