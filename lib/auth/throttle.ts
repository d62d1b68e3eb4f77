import "server-only";
import { audit } from "@/lib/audit/log";
import type { RequestInfo } from "@/lib/audit/context";
import { prisma } from "@/lib/db/client";
import { throttleSettings } from "./login-attempts";

// Sign-in throttling, stored in the database so every process sees the same counts.
// An account (the email as typed, whether or not it exists, so no answer tells them apart) is
// paused after LOGIN_MAX_FAILURES failures within the window since its last success; an address
// after LOGIN_MAX_FAILURES_PER_IP failures within the window, whatever accounts it tried.

export { throttleSettings } from "./login-attempts";

/** Seconds to wait before this email may try again from this address; 0 when allowed. */
export async function throttleWait(email: string, ip: string, now = new Date()): Promise<number> {
  const { windowMs, perAccount, perIp } = throttleSettings();
  const db = await prisma();
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

/** Records an attempt and its audit event together. */
export async function recordSignIn(
  attempt: { email: string; success: boolean; user?: { id: number; email: string } },
  request: RequestInfo,
) {
  const db = await prisma();
  await db.$transaction(async (tx) => {
    await tx.loginAttempt.create({ data: { email: attempt.email.slice(0, 254), ip: request.ip ?? "unknown", success: attempt.success } });
    await audit(tx, {
      action: attempt.success ? "auth.sign_in" : "auth.sign_in_failed",
      actor: attempt.user ?? null,
      actorEmail: attempt.email,
      request,
    });
  });
}

export async function recordLocked(email: string, request: RequestInfo, retryAfter: number) {
  await audit(await prisma(), { action: "auth.locked", actorEmail: email, after: { retry_after_seconds: retryAfter }, request });
}

