import HEADERS from "./static-headers.json";

// Response headers every HTML and API response carries (static assets under /_next/static are
// immutable files served by Next itself and keep their own caching).
//
// The values live in static-headers.json, which next.config.js reads too: pages get them from
// proxy.ts (with a per-request CSP nonce), the JSON API from next.config.js's `headers()` for
// every answer under /api/v1 and /api/health (Next's own 404s and 405s included), without the
// proxy, and again from lib/http/api.ts so that route handlers called directly carry them.
// Runtime-neutral (no Node APIs).

const HSTS_VALUE = HEADERS.hsts;

/**
 * The policy of answers that are not HTML (JSON, files): nothing may load or run from them, and
 * they may not be framed.
 */
export const API_CSP = HEADERS.apiCsp;

/** The headers that do not depend on the request (the pages' CSP, which needs a nonce, is apart). */
export function baseSecurityHeaders(production = process.env.NODE_ENV === "production"): Record<string, string> {
  return {
    // nosniff; same-origin referrers; X-Frame-Options DENY (the legacy twin of frame-ancestors
    // 'none' for browsers without CSP level 2); COOP; no camera, microphone, location…
    ...HEADERS.base,
    // Only in production: a developer's http://localhost must not be pinned to HTTPS.
    ...(production ? { "Strict-Transport-Security": HSTS_VALUE } : {}),
  };
}

/** Console pages and API answers depend on who asks: never stored by browsers or proxies. */
const NO_STORE = "no-store";

/** Sets the base headers (and no-store) on `headers`, keeping a stricter Cache-Control already there. */
export function applySecurityHeaders(headers: Headers, production?: boolean): Headers {
  for (const [name, value] of Object.entries(baseSecurityHeaders(production))) headers.set(name, value);
  const cache = headers.get("Cache-Control");
  if (!cache || !/\bno-store\b/.test(cache)) headers.set("Cache-Control", NO_STORE);
  return headers;
}

/** The headers of a JSON or file answer: the base ones, no-store and API_CSP. */
export function apiSecurityHeaders(production?: boolean): Record<string, string> {
  return { ...baseSecurityHeaders(production), "Cache-Control": NO_STORE, "Content-Security-Policy": API_CSP };
}

/** Sets apiSecurityHeaders on `headers`: for answers that are not pages. */
export function applyApiSecurityHeaders(headers: Headers, production?: boolean): Headers {
  for (const [name, value] of Object.entries(apiSecurityHeaders(production))) headers.set(name, value);
  return headers;
}

/** Paths whose responses are public build output (and the icon): left to Next's own caching. */
export function isStaticAsset(pathname: string): boolean {
  return pathname.startsWith("/_next/static/") || pathname === "/favicon.ico";
}
