// Response headers every HTML and API response carries (static assets under /_next/static are
// immutable files served by Next itself and keep their own caching).
//
// Runtime-neutral: used by proxy.ts for every page and API request, and by lib/http/api.ts so
// that JSON answers carry them even when no proxy ran (route handlers called directly, a
// matcher that missed a path).

export const HSTS_VALUE = "max-age=63072000; includeSubDomains";

/** The headers that do not depend on the request (the CSP, which needs a nonce, is apart). */
export function baseSecurityHeaders(production = process.env.NODE_ENV === "production"): Record<string, string> {
  return {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    // Legacy twin of frame-ancestors 'none' for browsers without CSP level 2.
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
    // Only in production: a developer's http://localhost must not be pinned to HTTPS.
    ...(production ? { "Strict-Transport-Security": HSTS_VALUE } : {}),
  };
}

/** Console pages and API answers depend on who asks: never stored by browsers or proxies. */
export const NO_STORE = "no-store";

/** Sets the base headers (and no-store) on `headers`, keeping a stricter Cache-Control already there. */
export function applySecurityHeaders(headers: Headers, production?: boolean): Headers {
  for (const [name, value] of Object.entries(baseSecurityHeaders(production))) headers.set(name, value);
  const cache = headers.get("Cache-Control");
  if (!cache || !/\bno-store\b/.test(cache)) headers.set("Cache-Control", NO_STORE);
  return headers;
}

/** Paths whose responses are public, immutable build output: left to Next's own caching. */
export function isStaticAsset(pathname: string): boolean {
  return pathname.startsWith("/_next/static/") || pathname.startsWith("/_next/image") || pathname === "/favicon.ico";
}
