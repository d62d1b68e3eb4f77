import type { SingleSignOn } from "@/lib/config";
import { withoutUnsafeText } from "@/lib/validation/text";
import type { Role } from "./permissions";

// What an identity provider's ID token says about a person, read the one way sso.ts acts on:
// pure, so the reading of every claim shape is unit-tested
// (docs/decisions/0030-sign-in-two-factor-and-sso.md).

/** next-auth's id of the single sign-on provider: its routes are /api/auth/signin/oidc and /api/auth/callback/oidc. */
export const SSO_PROVIDER_ID = "oidc";

/** Why a single sign-on is refused; the page at /login/refused explains each. */
export const SSO_REFUSALS = ["no_email", "unverified_email", "no_group", "deactivated", "subject_mismatch"] as const;
export type SsoRefusal = (typeof SSO_REFUSALS)[number];

export type SsoIdentity = {
  /** `iss` and `sub`: together, and only together, they name the person (OpenID Connect Core 5.7). */
  issuer: string;
  subject: string;
  email: string;
  name: string;
  groups: string[];
  role: Role;
  /** Branch names from the groups; null: every branch; undefined: the scope is left to the administrators (no prefix set). */
  branchNames: string[] | null | undefined;
};

const text = (value: unknown): string | null => (typeof value === "string" && value.trim() !== "" ? value.trim() : null);

/** `true`, or the string "true" some providers send. Entra ID sends no email_verified: its `xms_edov` says the domain's owner vouches. */
function emailVerified(claims: Record<string, unknown>): boolean {
  const truthy = (v: unknown) => v === true || v === "true";
  return truthy(claims.email_verified) || truthy(claims.xms_edov);
}

/** The groups claim: a list of names (or ids), or one name; anything else is no group. */
function groupsOf(claims: Record<string, unknown>, claim: string): string[] {
  const value = claims[claim];
  const list = Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
  return [...new Set(list.filter((g): g is string => typeof g === "string").map((g) => g.trim()).filter(Boolean))].slice(0, 1000);
}

/** The person the claims describe, with the role and branches their groups give, or why they may not sign in. */
export function readIdentity(claims: Record<string, unknown>, settings: SingleSignOn): { ok: true; identity: SsoIdentity } | { ok: false; reason: SsoRefusal; email: string | null; groups: string[] } {
  const email = text(claims.email)?.toLowerCase().slice(0, 254) ?? null;
  const groups = groupsOf(claims, settings.groupsClaim);
  if (!email) return { ok: false, reason: "no_email", email, groups };
  if (!emailVerified(claims)) return { ok: false, reason: "unverified_email", email, groups };
  const has = (names: string[]) => names.some((name) => groups.includes(name));
  // Admin wins: someone in both groups is an administrator.
  const role: Role | null = has(settings.adminGroups) ? "admin" : has(settings.staffGroups) ? "staff" : null;
  if (!role) return { ok: false, reason: "no_group", email, groups };
  const prefix = settings.branchGroupPrefix;
  let branchNames: string[] | null | undefined;
  if (role === "admin") branchNames = null;
  else if (prefix) {
    const named = groups.filter((g) => g.startsWith(prefix)).map((g) => g.slice(prefix.length).trim()).filter(Boolean);
    branchNames = named.length ? named : null;
  }
  // The name as users' names are kept (lib/validation/text.ts); the address's local part when none is left.
  const name = withoutUnsafeText(text(claims.name) ?? "").slice(0, 100).trim() || email.split("@")[0]!.slice(0, 100);
  // next-auth's client has checked `iss` against the provider's discovery document; the setting stands in only when a token has none.
  const issuer = (text(claims.iss) ?? settings.issuer).slice(0, 255);
  return { ok: true, identity: { issuer, subject: String(claims.sub).slice(0, 255), email, name, groups, role, branchNames } };
}
