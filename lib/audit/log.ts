import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { SessionUser } from "@/lib/auth/permissions";
import type { AuditAction } from "./actions";
import { sql, type Statement } from "@/lib/db/sql";
import { transaction } from "@/lib/db/transaction";
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

/** A background job's event: the actor read in the statement (none if the account is gone), the job's name as user agent. */
export type JobAuditEntry = Omit<AuditEntry, "actor" | "actorEmail" | "request"> & { userId: number; job: string };

export type AnyAuditEntry = AuditEntry | JobAuditEntry;

/** One audit event as one INSERT: `tx.audit(…)` (lib/db/transaction.ts) writes it in the transaction of the change it records. */
export async function auditStatement(entry: AnyAuditEntry): Promise<Statement> {
  const json = (v: AuditEntry["before"]) => (v === undefined ? null : JSON.stringify(v));
  const what = sql`${entry.action}, ${entry.entity ?? null}, ${entry.entityId === undefined ? null : String(entry.entityId)}, ${json(entry.before)}::jsonb, ${json(entry.after)}::jsonb`;
  if ("job" in entry) {
    // eslint-disable-next-line console/writes-in-transaction -- built here, sent by tx.audit in the change's transaction.
    return sql`INSERT INTO audit_events (action, entity, entity_id, before, after, actor_id, actor_email, ip, user_agent)
      SELECT ${what}, u.id, u.email, NULL, ${entry.job} FROM (SELECT 1) AS job LEFT JOIN users u ON u.id = ${entry.userId}`;
  }
  const request = entry.request ?? (await requestInfo());
  // eslint-disable-next-line console/writes-in-transaction -- built here, sent by tx.audit in the change's transaction.
  return sql`INSERT INTO audit_events (action, entity, entity_id, before, after, actor_id, actor_email, ip, user_agent)
    VALUES (${what}, ${entry.actor?.id ?? null}, ${entry.actor?.email ?? entry.actorEmail?.slice(0, 254) ?? null}, ${request.ip}, ${request.userAgent})`;
}

/** An event that is the whole write (a refused or locked sign-in), in a statement of its own. */
export async function audit(entry: AuditEntry) {
  await transaction((tx) => tx.audit(entry));
}

/** `authz.denied` events written per user and minute; the minute's later denials are counted on its last one. */
export const DENIED_EVENTS_PER_MINUTE = 5;

/** Bounded per user and minute so nobody fills the audit log by asking again; loose by the pool's size under concurrency. */
export async function auditDenied(actor: Pick<SessionUser, "id" | "email">, after: Record<string, Prisma.InputJsonValue>) {
  const minute = sql`action = 'authz.denied' AND actor_id = ${actor.id} AND at >= date_trunc('minute', now())`;
  const counted = await transaction((tx) => tx.query(sql`UPDATE audit_events
    SET after = jsonb_set(COALESCE(after, '{}'::jsonb), '{repeated}', to_jsonb(COALESCE((after->>'repeated')::int, 0) + 1))
    WHERE id = (SELECT max(id) FROM audit_events WHERE ${minute})
      AND (SELECT count(*) FROM audit_events WHERE ${minute}) >= ${DENIED_EVENTS_PER_MINUTE} RETURNING id`));
  if (counted.length === 0) await audit({ action: "authz.denied", actor, after });
}
