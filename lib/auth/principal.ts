import type { SessionUser } from "./permissions";
import type { BranchScope } from "./scope";

// Who is calling, resolved once per request from the session cookie or the bearer token, with what
// REQUIRE_TWO_FACTOR makes of them and the branches they see; the guards (lib/auth/guards.ts) decide
// on this alone (docs/decisions/0040-one-principal.md).

export type TwoFactorRule = "off" | "admins" | "everyone";

/**
 * - `on`: the user has codes set up.
 * - `not-required`: REQUIRE_TWO_FACTOR does not cover the user, who has none.
 * - `provider`: covered, no codes, but a single sign-on session: the identity provider owns its second factor.
 * - `pending`: covered, no codes, a password session or an API token: only the set-up is reachable.
 */
export type TwoFactorStanding = "on" | "not-required" | "provider" | "pending";

/** The user as the guards hand it on, with the branch scope decided once from the same row (decision 40). */
export type Caller = SessionUser & { readonly scope: BranchScope };

export type Principal = {
  user: Caller;
  /** How the caller proved who they are. */
  via: "password" | "sso" | "token";
  /** A session's sign-in time (seconds since the epoch); null for a token. */
  signedInAt: number | null;
  twoFactor: TwoFactorStanding;
};

export const coveredByRule = (rule: TwoFactorRule, role: SessionUser["role"]) => rule === "everyone" || (rule === "admins" && role === "admin");

export function twoFactorStanding(rule: TwoFactorRule, role: SessionUser["role"], enrolled: boolean, via: Principal["via"]): TwoFactorStanding {
  if (enrolled) return "on";
  if (!coveredByRule(rule, role)) return "not-required";
  // A token cannot tell which kind of session made it, so it gets no single sign-on exemption.
  return via === "sso" ? "provider" : "pending";
}
