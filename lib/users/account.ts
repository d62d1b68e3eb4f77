import "server-only";
import { requestInfo } from "@/lib/audit/context";
import type { SessionUser } from "@/lib/auth/permissions";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { passwordProblem } from "@/lib/auth/password-policy";
import { claimAttempt, recordLocked, settleAttempt } from "@/lib/auth/throttle";
import { prisma } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { transaction } from "@/lib/db/transaction";

// The current password goes through the sign-in throttle, so a stolen session cannot guess it
// faster; then every other session of the user ends.

/** Returns the user's new session version. */
export async function changeOwnPassword(user: SessionUser, current: string, password: string): Promise<number> {
  const request = await requestInfo();
  const { wait, attempt } = await claimAttempt(user.email, request);
  if (!attempt) {
    await recordLocked(user.email, request, wait);
    throw new AppError(429, "too_many_attempts", "Too many wrong passwords. Try again later.", undefined, wait);
  }
  const db = await prisma();
  const row = await db.user.findUnique({ where: { id: user.id }, select: { password_hash: true } });
  const ok = row ? await verifyPassword(current, row.password_hash) : false;
  await settleAttempt(attempt, { email: user.email, success: ok, user }, request, "password-check");
  if (!ok) throw new AppError(400, "invalid_input", "Your current password is not right.", { current: ["Your current password is not right."] });
  if (current === password) throw new AppError(400, "invalid_input", "Choose a password other than your current one.", { password: ["Choose a password other than your current one."] });
  const problem = await passwordProblem(password, [user.name, user.email]);
  if (problem) throw new AppError(400, "invalid_input", problem, { password: [problem] });
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
