import "server-only";
import { type AuditEntry } from "@/lib/audit/log";
import { tokenPrincipal } from "@/lib/auth/bearer";
import type { SessionUser } from "@/lib/auth/permissions";
import { newApiToken, secretHash } from "@/lib/auth/secrets";
import { prisma } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { problem } from "@/lib/i18n/problem";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { z } from "zod";
import type { TokenBody, tokenCreateSchema } from "./schema";
import { transaction } from "@/lib/db/transaction";

// A user's own API tokens: the secret is shown once, only its hash kept (docs/decisions/0011-people-tokens-and-sessions.md).

const select = { id: true, name: true, scope: true, created_at: true, expires_at: true, last_used_at: true, revoked_at: true } as const;
export type TokenRow = Prisma.ApiTokenGetPayload<{ select: typeof select }>;

export async function createToken(user: SessionUser, input: z.output<typeof tokenCreateSchema>): Promise<{ token: string; row: TokenRow }> {
  const token = newApiToken();
  const row = await transaction(async (tx) => {
    const created = await tx.apiToken.create({
      data: { user_id: user.id, name: input.name, scope: input.scope, expires_at: input.expires_at, token_hash: secretHash(token) },
      select,
    });
    await tx.audit({ action: "token.create", actor: user, entity: "token", entityId: created.id, after: serializeToken(created) });
    return created;
  });
  return { token, row };
}

/** The user's tokens, newest first: the revoked and expired ones too, so the list tells what happened. */
export async function listTokens(userId: number): Promise<TokenRow[]> {
  return (await prisma()).apiToken.findMany({ where: { user_id: userId }, orderBy: [{ created_at: "desc" }, { id: "desc" }], select, take: 100 });
}

/** Revokes one of the user's own tokens; anyone else's is the same 404 as no token. */
export async function revokeToken(user: SessionUser, id: number): Promise<TokenRow> {
  return transaction(async (tx) => {
    const revoked = await tx.apiToken.updateManyAndReturn({
      where: { id, user_id: user.id, revoked_at: null },
      data: { revoked_at: new Date() },
      select,
    });
    const row = revoked[0] ?? (await tx.apiToken.findFirst({ where: { id, user_id: user.id }, select }));
    if (!row) throw new AppError(404, "not_found", problem("tokens.notFound"));
    if (revoked[0]) await tx.audit({ action: "token.revoke", actor: user, entity: "token", entityId: id, before: serializeToken({ ...row, revoked_at: null }) });
    return row;
  });
}

/** The audit entry of a token's use for an export, for the caller's transaction; null without a token. */
export function tokenExportEntry(what: "request" | "download", exportId: string): AuditEntry | null {
  const principal = tokenPrincipal();
  if (!principal) return null;
  return {
    action: "token.export",
    actor: principal.user,
    entity: "token",
    entityId: principal.token.id,
    after: { token: principal.token.name, [what]: exportId },
  };
}

export type TokenState = "active" | "revoked" | "expired";
export const tokenState = (t: Pick<TokenRow, "revoked_at" | "expires_at">, now = Date.now()): TokenState =>
  t.revoked_at ? "revoked" : t.expires_at.getTime() <= now ? "expired" : "active";

export function serializeToken(t: TokenRow): TokenBody {
  return {
    id: t.id,
    name: t.name,
    scope: t.scope,
    created_at: t.created_at.toISOString(),
    expires_at: t.expires_at.toISOString(),
    last_used_at: t.last_used_at?.toISOString() ?? null,
    revoked_at: t.revoked_at?.toISOString() ?? null,
    state: tokenState(t),
  };
}
