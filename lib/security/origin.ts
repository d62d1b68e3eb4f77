// The one same-origin rule (docs/decisions/0020-policy-one-place-per-concern.md): browsers always
// send Origin on a cross-site write; a request without one (curl) carries no ambient cookie risk.
// No Node APIs: the proxy imports it.

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
  // server.ts drops a client's own X-Forwarded-Host when no proxy is trusted.
  const forwardedHost = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  const host = request.headers.get("host") ?? new URL(request.url).host;
  return !originHost || (originHost !== forwardedHost && originHost !== host);
}
