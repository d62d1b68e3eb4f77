import "server-only";
import { auditDenied } from "@/lib/audit/log";
import { BrandedError } from "@/lib/errors";
import { canManageBranches, type SessionUser } from "./permissions";
import { tokenPrincipal } from "./bearer";
import { currentUser } from "./session";
import { logError } from "@/lib/telemetry/log";

/** Thrown by the guards; the page, action and API wrappers turn it into the right answer. */
export class AuthError extends BrandedError {
  static readonly brand: string = "console.AuthError";

  constructor(readonly status: 401 | 403) {
    super(status === 401 ? "Sign in to continue." : "You are not allowed to do this.");
  }
}

/** Every protected read and mutation starts here; a bearer request's user is its token's. */
export async function requireUser(): Promise<SessionUser> {
  const user = tokenPrincipal()?.user ?? (await currentUser());
  if (!user) throw new AuthError(401);
  return user;
}

export async function requireAdmin(): Promise<SessionUser> {
  const user = await requireUser();
  if (!canManageBranches(user)) {
    // A signed-in user tried something their role does not allow: worth a line in the audit log.
    await auditDenied(user, { required: "admin", role: user.role }).catch(
      (error: unknown) => logError(error, "audit failed"),
    );
    throw new AuthError(403);
  }
  return user;
}
