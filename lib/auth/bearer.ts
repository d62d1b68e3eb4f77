import "server-only";
import { query, sql } from "@/lib/db/sql";
import { config } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { problem } from "@/lib/i18n/problem";
import { scopeSlot } from "@/lib/request-scope";
import { tokenAllows, type TokenScope } from "@/lib/tokens/scope";
import type { Role } from "./permissions";
import { twoFactorStanding, type Principal } from "./principal";
import { USER_BRANCH_IDS, branchScope } from "./scope";
import { isApiTokenShape, secretHash } from "./secrets";

// Bearer tokens on the JSON API, decided once per request by lib/http/api.ts; judged by the token
// alone: no Origin check is needed, as a browser cannot send this header cross-site without a CORS
// preflight, which the console never allows (docs/decisions/0011-people-tokens-and-sessions.md).

/** The caller as a session's is (lib/auth/principal.ts), and the token itself. */
export type TokenPrincipal = Principal & { via: "token"; token: { id: number; name: string; scope: TokenScope } };

// One per process, whichever layer of the build reads it (lib/request-scope.ts).
const principals = scopeSlot<TokenPrincipal>("auth.token-principal");

/** The request's token and its user, when the request came with a bearer token. */
export const tokenPrincipal = (): TokenPrincipal | null => principals.get() ?? null;

export const withTokenPrincipal = <T>(principal: TokenPrincipal, run: () => Promise<T>): Promise<T> => principals.run(principal, run);

/** One answer for every bad token: which part was wrong is nobody's business. */
const invalid = () => new AppError(401, "invalid_token", problem("auth.invalidToken"));

/** Another scheme (`Basic` from a proxy in front, say) is null, and the session cookie decides. */
export function bearerOf(request: Request): string | null {
  const header = request.headers.get("authorization");
  if (header === null || !/^\s*Bearer(\s|$)/i.test(header)) return null;
  const match = /^\s*Bearer +(\S+) *$/i.exec(header);
  if (!match) throw invalid();
  return match[1]!;
}

type TokenRow = {
  id: number;
  name: string;
  scope: TokenScope;
  expires_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
  user_id: number;
  user_name: string;
  email: string;
  role: Role;
  branch_ids: number[] | null;
  active: boolean;
  two_factor: boolean;
  /** This request's number in the token's current minute, and the seconds left of that minute. */
  rate_count: number;
  rate_wait: number;
};

/**
 * The token of `hash` with its user, counting this request in the token's minute: in the one
 * statement, so the limit is the server's and not each process's at no extra round trip
 * (docs/decisions/0047-token-rates-in-the-database.md).
 */
export const tokenLookup = (hash: string) =>
  // eslint-disable-next-line console/writes-in-transaction -- one row, in the request's one statement (decision 0047): nothing to deadlock on.
  sql`WITH t AS (
        SELECT t.id, t.name, t.scope::text AS scope, t.expires_at, t.revoked_at, t.last_used_at,
               u.id AS user_id, u.name AS user_name, u.email, u.role::text AS role, ${USER_BRANCH_IDS}, u.active,
               u.two_factor_enabled_at IS NOT NULL AS two_factor
          FROM api_tokens t JOIN users u ON u.id = t.user_id
         WHERE t.token_hash = ${hash}),
      rate AS (
        INSERT INTO api_token_rates AS r (token_id, window_start, count) SELECT id, now(), 1 FROM t
        ON CONFLICT (token_id) DO UPDATE
          SET window_start = CASE WHEN r.window_start <= now() - interval '1 minute' THEN now() ELSE r.window_start END,
              count = CASE WHEN r.window_start <= now() - interval '1 minute' THEN 1 ELSE r.count + 1 END
        RETURNING r.count AS rate_count, ceil(extract(epoch FROM r.window_start + interval '1 minute' - now()))::int AS rate_wait)
      SELECT * FROM t, rate`;

const TOUCH_EVERY_MS = 60_000;

/** 401 for any bad token, 403 outside its scope, 429 past its rate; the user's role is read now, as for sessions. */
export async function authenticateBearer(token: string, request: Request): Promise<TokenPrincipal> {
  if (!isApiTokenShape(token)) throw invalid();
  const [row] = await query<TokenRow>(tokenLookup(secretHash(token)));
  if (!row || row.revoked_at || row.expires_at.getTime() <= Date.now() || !row.active) throw invalid();
  const { method } = request;
  const { pathname } = new URL(request.url);
  if (!tokenAllows(row.scope, method, pathname)) {
    throw new AppError(403, "token_scope", problem("auth.tokenScope", { scope: row.scope, method, path: pathname }));
  }
  if (row.rate_count > config().TOKEN_REQUESTS_PER_MINUTE) {
    throw new AppError(429, "too_many_requests", problem("auth.tokenRate"), undefined, Math.max(1, row.rate_wait));
  }
  if (!row.last_used_at || Date.now() - row.last_used_at.getTime() > TOUCH_EVERY_MS) {
    // eslint-disable-next-line console/writes-in-transaction -- one row, alone: nothing to deadlock on, and no round trips added to an API request.
    await query(sql`UPDATE api_tokens SET last_used_at = now() WHERE id = ${row.id}`);
  }
  return {
    user: { id: row.user_id, name: row.user_name, email: row.email, role: row.role, branch_ids: row.branch_ids, scope: branchScope(row) },
    via: "token",
    signedInAt: null,
    // The requirement covers the person, not one credential: a token of a user who still has to set
    // up codes is refused until they do (docs/decisions/0030-sign-in-two-factor-and-sso.md).
    twoFactor: twoFactorStanding(config().REQUIRE_TWO_FACTOR, row.role, row.two_factor, "token"),
    token: { id: row.id, name: row.name, scope: row.scope },
  };
}
