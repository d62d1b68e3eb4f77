import "server-only";
import type { Tx } from "@/lib/db/transaction";
import type { SessionUser } from "@/lib/auth/permissions";
import { hashPassword } from "@/lib/auth/password";
import { passwordProblem } from "@/lib/auth/password-policy";
import { problem } from "@/lib/i18n/problem";
import { isLinkSecretShape, newLinkSecret, secretHash } from "@/lib/auth/secrets";
import { prisma } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { consoleOrigin } from "@/lib/http/return-to";
import { transaction } from "@/lib/db/transaction";

// One-time set-password links, shown once to the admin (no e-mail); only the secret's hash is
// stored. Deactivating a user retires their links by a trigger, migration 20261127090000
// (docs/decisions/0011-people-tokens-and-sessions.md).

export const LINK_LIFETIME_MS = 24 * 60 * 60 * 1000;

export const setPasswordPath = (secret: string) => `/set-password/${secret}`;

/** Makes a link for `userId` inside the caller's transaction; returns its URL (shown once). */
export async function makePasswordLink(tx: Tx, userId: number, actor: Pick<SessionUser, "id"> | null): Promise<string> {
  await tx.passwordLink.updateMany({ where: { user_id: userId, used_at: null, expires_at: { gt: new Date() } }, data: { expires_at: new Date() } });
  const secret = newLinkSecret();
  await tx.passwordLink.create({
    data: { user_id: userId, token_hash: secretHash(secret), created_by: actor?.id ?? null, expires_at: new Date(Date.now() + LINK_LIFETIME_MS) },
  });
  return `${consoleOrigin()}${setPasswordPath(secret)}`;
}

export type LinkState =
  | { state: "valid"; user: { id: number; name: string; email: string }; expiresAt: Date }
  | { state: "used" | "expired" | "inactive" | "unknown" };

/** What a link's secret is worth, for the set-password page. */
export async function linkState(secret: string): Promise<LinkState> {
  if (!isLinkSecretShape(secret)) return { state: "unknown" };
  const link = await (await prisma()).passwordLink.findUnique({
    where: { token_hash: secretHash(secret) },
    select: { used_at: true, expires_at: true, user: { select: { id: true, name: true, email: true, active: true } } },
  });
  if (!link) return { state: "unknown" };
  if (link.used_at) return { state: "used" };
  if (link.expires_at.getTime() <= Date.now()) return { state: "expired" };
  if (!link.user.active) return { state: "inactive" };
  const { id, name, email } = link.user;
  return { state: "valid", user: { id, name, email }, expiresAt: link.expires_at };
}

/** Why a link cannot be used, as problem keys (lib/i18n/problem.ts): the page and the refusal put them into the reader's words. */
export const LINK_MESSAGES = {
  used: problem("users.linkUsed"),
  expired: problem("users.linkExpired"),
  inactive: problem("users.linkInactive"),
  unknown: problem("users.linkUnknown"),
} as const;

/** Sets the password of the link's user, once: the link is spent and every session of the user ends. */
export async function setPasswordWithLink(secret: string, password: string): Promise<{ email: string }> {
  const state = await linkState(secret);
  if (state.state !== "valid") throw new AppError(400, `link_${state.state}`, LINK_MESSAGES[state.state]);
  const problem = await passwordProblem(password, [state.user.name, state.user.email]);
  if (problem) throw new AppError(400, "invalid_input", problem, { password: [problem] });
  const hash = await hashPassword(password);
  return transaction(async (tx) => {
    // Only while active: a concurrent deactivation is waited for and then seen.
    const changed = await tx.user.updateMany({ where: { id: state.user.id, active: true }, data: { password_hash: hash, session_version: { increment: 1 } } });
    if (changed.count !== 1) throw new AppError(400, "link_inactive", LINK_MESSAGES.inactive);
    // Spent under the update's row lock: of two submissions of one link, one wins.
    const spent = await tx.passwordLink.updateMany({
      where: { token_hash: secretHash(secret), used_at: null, expires_at: { gt: new Date() } },
      data: { used_at: new Date() },
    });
    if (spent.count !== 1) throw new AppError(400, "link_used", LINK_MESSAGES.used);
    const user = { id: state.user.id, email: state.user.email };
    await tx.audit({ action: "user.password_set", actor: user, entity: "user", entityId: user.id, after: { via: "link" } });
    return { email: user.email };
  });
}
