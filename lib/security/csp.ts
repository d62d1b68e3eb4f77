// The Content Security Policy of every page: scripts run only with this response's nonce (and
// what those scripts load, 'strict-dynamic'); no plugins, no <base>, no framing.
//
// Pure and runtime-neutral (no Node APIs): proxy.ts builds the header with it for each request,
// and Next reads the nonce back from the request's Content-Security-Policy header to put it on
// its own <script> tags. Unit-tested in tests/unit/security-csp.test.ts.

type CspOptions = {
  nonce: string;
  /** `next dev` needs 'unsafe-eval' (React rebuilds server stacks with eval); never in production. */
  development?: boolean;
};

const NONCE_PATTERN = /^[A-Za-z0-9+/_-]{16,}={0,2}$/;

/** A fresh nonce: 128 random bits, base64. One per response, never reused. */
export function createNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The directives, in order; `buildCsp` joins them. */
export function cspDirectives({ nonce, development = false }: CspOptions): Record<string, string[]> {
  if (!NONCE_PATTERN.test(nonce)) throw new Error("A CSP nonce must be at least 16 base64 characters.");
  return {
    "default-src": ["'self'"],
    // 'strict-dynamic': scripts trusted by the nonce may load Next's chunks; host sources and
    // 'self' are ignored by browsers that support it and kept as the fallback of those that do not.
    "script-src": ["'self'", `'nonce-${nonce}'`, "'strict-dynamic'", ...(development ? ["'unsafe-eval'"] : [])],
    // React writes style="" attributes (the toast library, widths of progress bars) and the toast
    // library injects a <style> element without a nonce: inline styles stay allowed. Styles cannot
    // run code; scripts remain nonce-only.
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

/** The header value: `default-src 'self'; script-src 'self' 'nonce-…' 'strict-dynamic'; …` */
export function buildCsp(options: CspOptions): string {
  return Object.entries(cspDirectives(options))
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}

/** The nonce of a policy built by `buildCsp` (what Next does to find it), or null. */
export function nonceOf(policy: string | null | undefined): string | null {
  return policy?.match(/'nonce-([^']+)'/)?.[1] ?? null;
}
