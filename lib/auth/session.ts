import "server-only";
import { cache } from "react";
import { cookies } from "next/headers";
import { SESSION_MAX_AGE_SECONDS, decodeSessionCookie, sessionCookieName } from "./cookies";
import type { Role } from "./permissions";
import type { Locale } from "@/lib/i18n/locales";
import { twoFactorStanding, type Principal } from "./principal";
import { USER_BRANCH_IDS, USER_BRANCH_NAMES, branchScope } from "./scope";
import { config } from "@/lib/config";
import { query, sql, type Statement } from "@/lib/db/sql";
import { noteCaller } from "@/lib/telemetry/request";

type UserRow = { id: number; name: string; email: string; role: Role; branch_ids: number[] | null; branch_names: string[] | null; active: boolean; session_version: number; preferences: unknown; locale: Locale | null; two_factor: boolean };

/** The session's user, read on every request: one primary-key lookup (a scoped user's branch names with it, for the header). */
export function sessionUserSql(userId: number): Statement {
  return sql`SELECT u.id, u.name, u.email, u.role::text AS role, ${USER_BRANCH_IDS}, ${USER_BRANCH_NAMES}, u.active, u.session_version, u.preferences, u.locale,
      u.two_factor_enabled_at IS NOT NULL AS two_factor
    FROM users u WHERE u.id = ${userId}`;
}

/** Whether a session signed in at `signedInAt` (seconds since the epoch) has run its course. */
function sessionExpired(signedInAt: unknown, now = Date.now()): boolean {
  if (typeof signedInAt !== "number" || !Number.isFinite(signedInAt)) return true;
  const at = signedInAt * 1000;
  // A minute of clock difference between the instances that sign in and read is tolerated.
  return at > now + 60_000 || now - at >= SESSION_MAX_AGE_SECONDS * 1000;
}

/** The JWT only names the user; role and `active` are read from the database on every request (docs/decisions/0002-sessions-are-checked-against-the-database.md). */
export const currentSession = cache(async (): Promise<{ principal: Principal; expires: Date } | null> => {
  const token = await decodeSessionCookie((await cookies()).get(sessionCookieName())?.value);
  if (!token || typeof token.uid !== "number" || sessionExpired(token.sat)) return null;
  const [user] = await query<UserRow>(sessionUserSql(token.uid));
  if (!user || !user.active || user.session_version !== token.sv) return null;
  noteCaller(user.id);
  const via = token.via === "sso" ? "sso" : "password";
  const signedInAt = token.sat as number;
  return {
    principal: {
      user: { id: user.id, name: user.name, email: user.email, role: user.role, branch_ids: user.branch_ids, branch_names: user.branch_names, preferences: user.preferences, locale: user.locale, scope: branchScope(user) },
      via,
      signedInAt,
      // Decided here, with the row it depends on: no guard reads the setting or the session again.
      twoFactor: twoFactorStanding(config().REQUIRE_TWO_FACTOR, user.role, user.two_factor, via),
    },
    expires: new Date(signedInAt * 1000 + SESSION_MAX_AGE_SECONDS * 1000),
  };
});

/** The session's principal (lib/auth/principal.ts), or null; the guards read it through lib/auth/guards.ts. */
export const sessionPrincipal = cache(async (): Promise<Principal | null> => (await currentSession())?.principal ?? null);
