import "server-only";
import type { Prisma, PrismaClient } from "@/lib/generated/prisma/client";
import type { SessionUser } from "@/lib/auth/permissions";
import type { AuditAction } from "./actions";
import { query, sql, type Statement } from "@/lib/db/sql";
import { requestInfo, type RequestInfo } from "./context";

export type { AuditAction };

export type AuditEntry = {
  action: AuditAction;
  actor?: Pick<SessionUser, "id" | "email"> | null;
  /** When there is no signed-in actor (a failed sign-in), the email that was tried. */
  actorEmail?: string;
  entity?: string;
  entityId?: string | number;
  before?: Prisma.InputJsonValue;
  after?: Prisma.InputJsonValue;
  request?: RequestInfo;
};

type Db = Pick<PrismaClient, "auditEvent"> | Prisma.TransactionClient;

/** Writes one audit event with `db`: pass the transaction of the change it records. */
export async function audit(db: Db, entry: AuditEntry) {
  const request = entry.request ?? (await requestInfo());
  await db.auditEvent.create({
    data: {
      action: entry.action,
      actor_id: entry.actor?.id ?? null,
      actor_email: entry.actor?.email ?? entry.actorEmail?.slice(0, 254) ?? null,
      entity: entry.entity ?? null,
      entity_id: entry.entityId === undefined ? null : String(entry.entityId),
      before: entry.before,
      after: entry.after,
      ip: request.ip,
      user_agent: request.userAgent,
    },
  });
}

/** The same event as one INSERT, for raw SQL that must write it in its own transaction. */
export async function auditStatement(entry: AuditEntry): Promise<Statement> {
  const request = entry.request ?? (await requestInfo());
  const json = (v: AuditEntry["before"]) => (v === undefined ? null : JSON.stringify(v));
  return sql`INSERT INTO audit_events (action, actor_id, actor_email, entity, entity_id, before, after, ip, user_agent)
    VALUES (${entry.action}, ${entry.actor?.id ?? null}, ${entry.actor?.email ?? entry.actorEmail ?? null}, ${entry.entity ?? null},
      ${entry.entityId === undefined ? null : String(entry.entityId)}, ${json(entry.before)}::jsonb, ${json(entry.after)}::jsonb,
      ${request.ip}, ${request.userAgent})`;
}

/** A background job's event: the actor read in the statement (none if the account is gone), the job's name as user agent. */
export function jobAuditStatement(entry: Omit<AuditEntry, "actor" | "actorEmail" | "request"> & { userId: number; job: string }): Statement {
  const json = (v: AuditEntry["before"]) => (v === undefined ? null : JSON.stringify(v));
  return sql`INSERT INTO audit_events (action, actor_id, actor_email, entity, entity_id, before, after, ip, user_agent)
    SELECT ${entry.action}, u.id, u.email, ${entry.entity ?? null}, ${entry.entityId === undefined ? null : String(entry.entityId)},
      ${json(entry.before)}::jsonb, ${json(entry.after)}::jsonb, NULL, ${entry.job}
      FROM (SELECT 1) AS job LEFT JOIN users u ON u.id = ${entry.userId}`;
}

/** `authz.denied` events written per user and minute; the minute's later denials are counted on its last one. */
export const DENIED_EVENTS_PER_MINUTE = 5;

/** Bounded per user and minute so nobody fills the audit log by asking again; loose by the pool's size under concurrency. */
export async function auditDenied(actor: Pick<SessionUser, "id" | "email">, after: Record<string, Prisma.InputJsonValue>) {
  const minute = sql`action = 'authz.denied' AND actor_id = ${actor.id} AND at >= date_trunc('minute', now())`;
  const counted = await query(sql`UPDATE audit_events
    SET after = jsonb_set(COALESCE(after, '{}'::jsonb), '{repeated}', to_jsonb(COALESCE((after->>'repeated')::int, 0) + 1))
    WHERE id = (SELECT max(id) FROM audit_events WHERE ${minute})
      AND (SELECT count(*) FROM audit_events WHERE ${minute}) >= ${DENIED_EVENTS_PER_MINUTE} RETURNING id`);
  if (counted.length === 0) await query(await auditStatement({ action: "authz.denied", actor, after }));
}
