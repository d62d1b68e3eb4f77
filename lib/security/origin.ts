// The console's one same-origin rule: a browser's write from another site is refused. A browser
// always sends Origin on a cross-site POST, PATCH or DELETE (forms and fetch alike), and it must
// name the host the request was sent to. A request without Origin is not a browser's cross-site
// one (curl, scripts) and carries no ambient cookie risk. proxy.ts asks it for every page POST
// (server actions, sign-in), lib/http/api.ts for every session-authenticated API write.
// Runtime-neutral: the proxy imports it.

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Whether `request` is a write whose Origin is another site, or no URL at all ("null", garbage). */
export function crossSiteWrite(request: Pick<Request, "method" | "headers" | "url">): boolean {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return false;
  const origin = request.headers.get("origin");
  if (origin === null) return false;
  let originHost: string;
  try {
    originHost = origin === "null" ? "" : new URL(origin).host;
  } catch {
    return true;
  }
  // Behind a trusted reverse proxy the public host is in X-Forwarded-Host (server.ts drops a
  // client's own when no proxy is trusted), and Host names the hop.
  const forwardedHost = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  const host = request.headers.get("host") ?? new URL(request.url).host;
  return !originHost || (originHost !== forwardedHost && originHost !== host);
}
