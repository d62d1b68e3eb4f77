// What an API token may call (docs/API.md): the JSON API only, never the token routes. Never more
// than its user's role: the route's own guard still runs after this.

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
