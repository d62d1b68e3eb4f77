// What an API token may call (docs/API.md "API tokens"): pure, so the route wrapper and the tests
// ask the same function. Tokens work on the JSON API only (pages and server actions read the
// session cookie alone), and never on the token routes themselves (those need a signed-in
// session). A token never grants more than its user's role: the route's own guard
// (requireUser/requireAdmin) still runs after this.

export const TOKEN_SCOPES = ["read", "export"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

const READ_METHODS = new Set(["GET", "HEAD"]);
/** The export's status and request, and its files: the `export` scope's alone. */
const EXPORT_PATHS = /^\/api\/v1\/(subscribers\/export|exports\/[^/]+\/download)\/?$/;
const TOKEN_ROUTES = /^\/api\/v1\/tokens(\/|$)/;

export function tokenAllows(scope: TokenScope, method: string, pathname: string): boolean {
  if (!pathname.startsWith("/api/v1/") || TOKEN_ROUTES.test(pathname)) return false;
  if (EXPORT_PATHS.test(pathname)) return scope === "export" && (READ_METHODS.has(method) || method === "POST");
  return READ_METHODS.has(method); // every list and record
}
