import "server-only";
import { cache } from "react";
import { cookies } from "next/headers";
import { SESSION_MAX_AGE_SECONDS, decodeSessionCookie, sessionCookieName } from "./cookies";
import type { Role, SessionUser } from "./permissions";
import { USER_BRANCH_IDS, USER_BRANCH_NAMES } from "./scope";
import { query, sql, type Statement } from "@/lib/db/sql";
import { noteCaller } from "@/lib/telemetry/request";

type UserRow = { id: number; name: string; email: string; role: Role; branch_ids: number[] | null; branch_names: string[] | null; active: boolean; session_version: number; preferences: unknown };

/** The session's user, read on every request: one primary-key lookup (a scoped user's branch names with it, for the header). */
export function sessionUserSql(userId: number): Statement {
  return sql`SELECT u.id, u.name, u.email, u.role::text AS role, ${USER_BRANCH_IDS}, ${USER_BRANCH_NAMES}, u.active, u.session_version, u.preferences
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
export const currentSession = cache(async (): Promise<{ user: SessionUser; expires: Date; signedInWith: "password" | "sso" } | null> => {
  const token = await decodeSessionCookie((await cookies()).get(sessionCookieName())?.value);
  if (!token || typeof token.uid !== "number" || sessionExpired(token.sat)) return null;
  const [user] = await query<UserRow>(sessionUserSql(token.uid));
  if (!user || !user.active || user.session_version !== token.sv) return null;
  noteCaller(user.id);
  return {
    user: { id: user.id, name: user.name, email: user.email, role: user.role, branch_ids: user.branch_ids, branch_names: user.branch_names, preferences: user.preferences },
    expires: new Date((token.sat as number) * 1000 + SESSION_MAX_AGE_SECONDS * 1000),
    signedInWith: token.via === "sso" ? "sso" : "password",
  };
});

/** The signed-in user of this request, or null (see currentSession). */
export const currentUser = cache(async (): Promise<SessionUser | null> => (await currentSession())?.user ?? null);
