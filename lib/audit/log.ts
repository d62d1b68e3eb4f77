import "server-only";
import type { Prisma, PrismaClient } from "@/lib/generated/prisma/client";
import type { SessionUser } from "@/lib/auth/permissions";
import type { AuditAction } from "./actions";
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
