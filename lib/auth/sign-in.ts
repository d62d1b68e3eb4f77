import "server-only";
import { requestInfoFrom } from "@/lib/audit/context";
import { prisma } from "@/lib/db/client";
import { transaction } from "@/lib/db/transaction";
import { scopeSlot } from "@/lib/request-scope";
import { TWO_FACTOR_CODE_USED, TWO_FACTOR_REQUIRED, loginSchema } from "@/lib/validation/auth";
import { dummyHash, verifyPassword } from "./password";
import { claimAttempt, dropAttempt, recordLocked, settleAttempt } from "./throttle";
import { spendSecondFactor } from "./two-factor";
import type { Role } from "./permissions";

// The one credentials check, called by next-auth's authorize() with exactly what it read; the
// pause is decided on that same email before any password is verified
// (docs/decisions/0009-one-credentials-path.md).

export type SignedInUser = { id: string; email: string; name: string; role: Role; sv: number };

type Attempt = { retryAfter: number };
// One per process, whichever layer of the build reads it (lib/request-scope.ts).
const attempts = scopeSlot<Attempt>("auth.sign-in-attempt");

/** Runs next-auth's handler for one sign-in and says whether the attempt was paused, for how long. */
export async function duringSignIn<T>(run: () => Promise<T>): Promise<{ result: T; retryAfter: number }> {
  const attempt: Attempt = { retryAfter: 0 };
  const result = await attempts.run(attempt, run);
  return { result, retryAfter: attempt.retryAfter };
}

export async function checkCredentials(credentials: unknown, headers: Headers): Promise<SignedInUser | null> {
  const parsed = loginSchema.safeParse(credentials ?? {});
  if (!parsed.success) return null;
  const { email, password, code } = parsed.data;
  const request = requestInfoFrom(headers);
  const { wait, attempt: claimed } = await claimAttempt(email, request);
  if (!claimed) {
    const attempt = attempts.get();
    if (attempt) attempt.retryAfter = wait;
    await recordLocked(email, request, wait);
    return null;
  }
  const user = await (await prisma()).user.findUnique({
    where: { email },
    select: {
      id: true, email: true, name: true, role: true, active: true, password_hash: true, session_version: true,
      two_factor_secret: true, two_factor_enabled_at: true,
    },
  });
  // Same work whether or not the email exists: no timing tells them apart.
  const ok = await verifyPassword(password, user?.password_hash ?? (await dummyHash()));
  if (!user || !ok || !user.active) {
    await settleAttempt(claimed, { email, success: false }, request);
    return null;
  }
  if (user.two_factor_enabled_at) {
    // The right password alone neither counts against the lock nor clears it: the code decides.
    if (!code) {
      await dropAttempt(claimed);
      throw new Error(TWO_FACTOR_REQUIRED);
    }
    const spent = await transaction(async (tx) => {
      const result = await spendSecondFactor(tx, user, code);
      if (result === "recovery") await tx.audit({ action: "user.recovery_code_use", actor: user, entity: "user", entityId: user.id, request });
      return result;
    });
    if (spent !== "code" && spent !== "recovery") {
      await settleAttempt(claimed, { email, success: false }, request);
      // Only after the right password: saying the code was spent tells nothing the caller lacks.
      if (spent === "used") throw new Error(TWO_FACTOR_CODE_USED);
      return null;
    }
  }
  await settleAttempt(claimed, { email, success: true, user }, request);
  return { id: String(user.id), email: user.email, name: user.name, role: user.role, sv: user.session_version };
}
