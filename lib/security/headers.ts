// The console's one security-header policy: which headers each kind of answer carries. Nothing
// else names a header value; two layers apply it (docs/decisions/0020-policy-one-place-per-concern.md):
// - server.ts starts every answer as a non-page one (`headersBefore`), so that what Next writes
//   outside any route (its 404s and 405s, its redirect of `//x`, the icon) carries it too;
// - proxy.ts turns a page's answer into a page's (`securityHeaders("page", …)`), with a fresh
//   nonce Next puts on its own scripts.
// Runtime-neutral (no Node APIs): the proxy imports it.

/** page: HTML with scripts run by nonce; api: JSON, files, redirects, refusals; static: Next's immutable build output. */
export type AnswerKind = "page" | "api" | "static";

type Options = {
  /** The page's nonce (kind "page" only): from createNonce, one per response. */
  nonce?: string;
  /** `next dev` needs 'unsafe-eval' in pages' scripts (React rebuilds server stacks with eval). */
  development?: boolean;
  /** HSTS is production's: a developer's http://localhost must not be pinned to HTTPS. */
  production?: boolean;
};

const BASE = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
  // The legacy twin of frame-ancestors 'none', for browsers without CSP level 2.
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
};

const HSTS = "max-age=63072000; includeSubDomains";

/** What is not a page loads, runs and frames nothing. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const NONCE_PATTERN = /^[A-Za-z0-9+/_-]{16,}={0,2}$/;

/** A fresh nonce: 128 random bits, base64. One per response, never reused. */
export function createNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The pages' policy, directive by directive, in order. */
export function cspDirectives({ nonce, development = false }: { nonce: string; development?: boolean }): Record<string, string[]> {
  if (!NONCE_PATTERN.test(nonce)) throw new Error("A CSP nonce must be at least 16 base64 characters.");
  return {
    "default-src": ["'self'"],
    // 'strict-dynamic': scripts trusted by the nonce may load Next's chunks; host sources and
    // 'self' are ignored by browsers that support it and kept as the fallback of those that do not.
    "script-src": ["'self'", `'nonce-${nonce}'`, "'strict-dynamic'", ...(development ? ["'unsafe-eval'"] : [])],
    // React writes style="" attributes and the toast library injects a <style> without a nonce:
    // inline styles stay allowed (styles cannot run code; scripts remain nonce-only).
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "frame-ancestors": ["'none'"],
    "form-action": ["'self'"],
    "manifest-src": ["'self'"],
    "worker-src": ["'self'", "blob:"],
  };
}

/** The pages' Content-Security-Policy: `default-src 'self'; script-src 'self' 'nonce-…' 'strict-dynamic'; …` */
export function buildCsp(options: { nonce: string; development?: boolean }): string {
  return Object.entries(cspDirectives(options))
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}

/** The nonce of a policy built by `buildCsp` (what Next does to find it), or null. */
export function nonceOf(policy: string | null | undefined): string | null {
  return policy?.match(/'nonce-([^']+)'/)?.[1] ?? null;
}

/** The security headers of an answer of `kind`. */
export function securityHeaders(kind: AnswerKind, options: Options = {}): Record<string, string> {
  const { production = process.env.NODE_ENV === "production" } = options;
  const csp = kind === "page" ? buildCsp({ nonce: options.nonce ?? "", development: options.development }) : API_CSP;
  return {
    ...BASE,
    ...(production ? { "Strict-Transport-Security": HSTS } : {}),
    "Content-Security-Policy": csp,
    // Pages and API answers depend on who asks: never stored. Next gives its build output
    // `immutable` caching only when no Cache-Control is set yet.
    ...(kind === "static" ? {} : { "Cache-Control": "no-store" }),
  };
}

/** Next's immutable build output: cacheable files, the same for everyone. */
export function isStaticAsset(pathname: string): boolean {
  return pathname.startsWith("/_next/static/");
}

/**
 * The headers server.ts sets on every answer before Next sees the request: a non-page answer's
 * (the proxy replaces them on pages), or a static file's.
 */
export function headersBefore(url: string): Record<string, string> {
  return securityHeaders(isStaticAsset(url.split(/[?#]/)[0]!) ? "static" : "api");
}
