// The one security-header policy (docs/decisions/0020-policy-one-place-per-concern.md): server.ts
// starts every answer as a non-page one, so what Next writes outside any route carries it too;
// proxy.ts makes a page's answer a page's, with a fresh nonce. No Node APIs: the proxy imports it.

/** page: HTML with scripts run by nonce; api: JSON, files, redirects, refusals; static: Next's immutable build output. */
export type AnswerKind = "page" | "api" | "static";

type Options = {
  /** The page's nonce (kind "page" only), one per response. */
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
    // 'strict-dynamic' lets nonce-trusted scripts load Next's chunks; 'self' is the older browsers' fallback.
    "script-src": ["'self'", `'nonce-${nonce}'`, "'strict-dynamic'", ...(development ? ["'unsafe-eval'"] : [])],
    // React and the toast library write inline styles without a nonce; styles cannot run code.
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
export const nonceOf = (policy: string | null | undefined): string | null => policy?.match(/'nonce-([^']+)'/)?.[1] ?? null;

/** The security headers of an answer of `kind`. */
export function securityHeaders(kind: AnswerKind, options: Options = {}): Record<string, string> {
  const { production = process.env.NODE_ENV === "production" } = options;
  const csp = kind === "page" ? buildCsp({ nonce: options.nonce ?? "", development: options.development }) : API_CSP;
  return {
    ...BASE,
    ...(production ? { "Strict-Transport-Security": HSTS } : {}),
    "Content-Security-Policy": csp,
    // Answers depend on who asks; Next caches its build output only when no Cache-Control is set yet.
    ...(kind === "static" ? {} : { "Cache-Control": "no-store" }),
  };
}

/** Next's immutable build output: cacheable files, the same for everyone. */
export const isStaticAsset = (pathname: string): boolean => pathname.startsWith("/_next/static/");

/** What server.ts sets on every answer before Next sees it (the proxy replaces them on pages). */
export function headersBefore(url: string): Record<string, string> {
  return securityHeaders(isStaticAsset(url.split(/[?#]/)[0]!) ? "static" : "api");
}
