import "server-only";
import { requestInfo } from "@/lib/audit/context";
import type { SessionUser } from "@/lib/auth/permissions";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { passwordProblem } from "@/lib/auth/password-policy";
import { claimAttempt, recordLocked, settleAttempt } from "@/lib/auth/throttle";
import { prisma } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { problem } from "@/lib/i18n/problem";
import type { Locale } from "@/lib/i18n/locales";
import { readUser, type UserRow } from "./queries";
import { transaction } from "@/lib/db/transaction";
import { sql } from "@/lib/db/sql";

// The current password goes through the sign-in throttle, so a stolen session cannot guess it
// faster; then every other session of the user ends.

/** Returns the user's new session version. */
export async function changeOwnPassword(user: SessionUser, current: string, password: string): Promise<number> {
  const request = await requestInfo();
  const { wait, attempt } = await claimAttempt(user.email, request);
  if (!attempt) {
    await recordLocked(user.email, request, wait);
    throw new AppError(429, "too_many_attempts", problem("users.tooManyAttempts"), undefined, wait);
  }
  const db = await prisma();
  const row = await db.user.findUnique({ where: { id: user.id }, select: { password_hash: true } });
  const ok = row ? await verifyPassword(current, row.password_hash) : false;
  await settleAttempt(attempt, { email: user.email, success: ok, user }, request, "password-check");
  if (!ok) throw new AppError(400, "invalid_input", problem("users.currentWrong"), { current: [problem("users.currentWrong")] });
  if (current === password) throw new AppError(400, "invalid_input", problem("users.samePassword"), { password: [problem("users.samePassword")] });
  const weak = await passwordProblem(password, [user.name, user.email]);
  if (weak) throw new AppError(400, "invalid_input", weak, { password: [weak] });
  const hash = await hashPassword(password);
  return transaction(async (tx) => {
    const updated = await tx.user.update({
      where: { id: user.id },
      data: { password_hash: hash, session_version: { increment: 1 } },
      select: { session_version: true },
    });
    await tx.audit({ action: "user.password_change", actor: user, entity: "user", entityId: user.id });
    return updated.session_version;
  });
}

/** The user's own language (null: their browser's), audited as other account changes; answers the user as the API shows them. */
export async function setOwnLocale(user: Pick<SessionUser, "id" | "email">, locale: Locale | null): Promise<UserRow> {
  return transaction(async (tx) => {
    const [before] = await tx.query<{ locale: Locale | null }>(sql`SELECT locale FROM users WHERE id = ${user.id} FOR UPDATE`);
    if (!before) throw new AppError(404, "not_found", problem("users.notFound"));
    if (before.locale !== locale) {
      await tx.query(sql`UPDATE users SET locale = ${locale} WHERE id = ${user.id}`);
      await tx.audit({ action: "user.locale_change", actor: user, entity: "user", entityId: user.id, before: { locale: before.locale }, after: { locale } });
    }
    const row = await readUser(tx, user.id);
    if (!row) throw new AppError(404, "not_found", problem("users.notFound"));
    return row;
  });
}
