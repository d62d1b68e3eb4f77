import "server-only";
import { auditDenied } from "@/lib/audit/log";
import { BrandedError } from "@/lib/errors";
import { problem } from "@/lib/i18n/problem";
import { canManageBranches } from "./permissions";
import { tokenPrincipal } from "./bearer";
import type { Caller, Principal } from "./principal";
import { sessionPrincipal } from "./session";
import { logError } from "@/lib/telemetry/log";

/** Why a 403 is a 403, when the caller can do something about it. */
export type AuthRefusal = "two_factor_required";

const MESSAGES = {
  401: problem("auth.signInToContinue"),
  403: problem("auth.notAllowed"),
  two_factor_required: problem("auth.twoFactorRequired"),
} as const;

/** Thrown by the guards; the page, action and API wrappers turn it into the right answer. */
export class AuthError extends BrandedError {
  static readonly brand: string = "console.AuthError";

  constructor(
    readonly status: 401 | 403,
    readonly reason?: AuthRefusal,
  ) {
    super(MESSAGES[reason ?? status]);
  }
}

/** The request's caller: its bearer token's (decided by lib/http/api.ts), else its session's; both resolved once per request. */
export const currentPrincipal = async (): Promise<Principal | null> => tokenPrincipal() ?? (await sessionPrincipal());

/** The request's signed-in user, or null, for what only decides what to show (the header, the language); never for access. */
export const currentUser = async (): Promise<Caller | null> => (await currentPrincipal())?.user ?? null;

async function signedIn(): Promise<Principal> {
  const principal = await currentPrincipal();
  if (!principal) throw new AuthError(401);
  return principal;
}

/**
 * Every protected read and mutation starts here (or at requireAdmin, built on it); a bearer
 * request's user is its token's. A caller who still has to set up two-factor gets no further.
 */
export async function requireUser(): Promise<Caller> {
  const principal = await signedIn();
  if (principal.twoFactor === "pending") throw new AuthError(403, "two_factor_required");
  return principal.user;
}

export async function requireAdmin(): Promise<Caller> {
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

/**
 * The one guard that lets a caller who still has to set up two-factor through: the set-up page
 * and its actions only (docs/decisions/0030-sign-in-two-factor-and-sso.md). A session only: tokens
 * never reach these.
 */
export async function requireSessionForTwoFactorSetUp(): Promise<Principal> {
  const principal = await signedIn();
  if (principal.via === "token") throw new AuthError(403);
  return principal;
}

/** As requireUser, in a session, for an action that confirms the person by how it signed in (a password, or a recent single sign-on). */
export async function requireSession(): Promise<Principal> {
  const principal = await requireSessionForTwoFactorSetUp();
  if (principal.twoFactor === "pending") throw new AuthError(403, "two_factor_required");
  return principal;
}

/**
 * Making an API token: as requireUser, and a user REQUIRE_TWO_FACTOR covers has codes set up,
 * even in a single sign-on session, since the token would be refused at its first use.
 */
export async function requireUserForNewToken(): Promise<Caller> {
  const principal = await signedIn();
  if (principal.twoFactor === "pending" || principal.twoFactor === "provider") throw new AuthError(403, "two_factor_required");
  return principal.user;
}
