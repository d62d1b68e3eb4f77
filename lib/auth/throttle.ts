import "server-only";
import { audit } from "@/lib/audit/log";
import type { RequestInfo } from "@/lib/audit/context";
import { prisma } from "@/lib/db/client";
import { sql } from "@/lib/db/sql";
import type { Prisma } from "@/lib/generated/prisma/client";
import { throttleSettings } from "./login-attempts";
import { transaction } from "@/lib/db/transaction";

// Sign-in throttling in the database, so every process sees the same counts. The email as typed
// counts whether or not it exists, so no answer tells them apart; a try is claimed under locks
// before its password is checked, so a burst gets no more checks than the limit.

export { throttleSettings } from "./login-attempts";

type Reader = Pick<Prisma.TransactionClient, "loginAttempt">;

/** Seconds to wait before this email may try again from this address; 0 when allowed. */
export async function throttleWait(email: string, ip: string, now = new Date(), reader?: Reader): Promise<number> {
  const { windowMs, perAccount, perIp } = throttleSettings();
  const db = reader ?? (await prisma());
  const since = new Date(now.getTime() - windowMs);
  const lastSuccess = await db.loginAttempt.findFirst({
    where: { email, success: true, created_at: { gt: since } },
    orderBy: { created_at: "desc" },
    select: { created_at: true },
  });
  // The Nth most recent failure: once it leaves the window, the count drops below the limit.
  const [accountNth, ipNth] = await Promise.all([
    db.loginAttempt.findFirst({
      where: { email, success: false, created_at: { gt: lastSuccess?.created_at ?? since } },
      orderBy: { created_at: "desc" },
      skip: perAccount - 1,
      select: { created_at: true },
    }),
    db.loginAttempt.findFirst({
      where: { ip, success: false, created_at: { gt: since } },
      orderBy: { created_at: "desc" },
      skip: perIp - 1,
      select: { created_at: true },
    }),
  ]);
  const until = Math.max(
    accountNth ? accountNth.created_at.getTime() + windowMs : 0,
    ipNth ? ipNth.created_at.getTime() + windowMs : 0,
  );
  return until > now.getTime() ? Math.ceil((until - now.getTime()) / 1000) : 0;
}

/** A claimed try: its row, already counted as a failure until it is settled. */
type ClaimedAttempt = { id: bigint };

/** Claims one try, or answers how long to wait; locks the email, then the address (always in that order). */
export async function claimAttempt(email: string, request: RequestInfo): Promise<{ wait: number; attempt?: ClaimedAttempt }> {
  const ip = request.ip ?? "unknown";
  return transaction(async (tx) => {
    await tx.query(sql`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended(${`login-email:${email}`}, 0))`);
    await tx.query(sql`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended(${`login-ip:${ip}`}, 0))`);
    const wait = await throttleWait(email, ip, new Date(), tx);
    if (wait > 0) return { wait };
    const row = await tx.loginAttempt.create({ data: { email: email.slice(0, 254), ip, success: false }, select: { id: true } });
    return { wait: 0, attempt: row };
  });
}

/** What a current-password check was for, stored as a code the audit page words (rows before read as English). */
export type PasswordCheck = "password_change" | "two_factor_setup" | "new_recovery_codes" | "two_factor_turn_off";

/** Settles a claimed try and audits it in the same transaction; a current-password check audits only failures. */
export async function settleAttempt(
  claimed: ClaimedAttempt,
  outcome: { email: string; success: boolean; user?: { id: number; email: string } },
  request: RequestInfo,
  kind: "sign-in" | "password-check" = "sign-in",
  during: PasswordCheck = "password_change",
) {
  await transaction(async (tx) => {
    if (outcome.success) await tx.loginAttempt.update({ where: { id: claimed.id }, data: { success: true } });
    if (outcome.success && kind === "password-check") return;
    if (outcome.success && outcome.user) await tx.user.update({ where: { id: outcome.user.id }, data: { last_sign_in_at: new Date() } });
    await tx.audit({
      action: outcome.success ? "auth.sign_in" : "auth.sign_in_failed",
      actor: outcome.user ?? null,
      actorEmail: outcome.email,
      ...(kind === "password-check" ? { after: { during } } : {}),
      request,
    });
  });
}

/** Forgets a claimed try that was neither right nor wrong (a right password still waiting for its code). */
export async function dropAttempt(claimed: ClaimedAttempt) {
  await transaction((tx) => tx.loginAttempt.delete({ where: { id: claimed.id } }));
}

export async function recordLocked(email: string, request: RequestInfo, retryAfter: number) {
  await audit({ action: "auth.locked", actorEmail: email, after: { retry_after_seconds: retryAfter }, request });
}

