import type { IncomingHttpHeaders } from "node:http";
import { API_CSP, securityHeaders } from "@/lib/security/headers";
import type { RawResponse } from "./console-server";

// What every answer of the production build must carry, as e2e/security.spec.ts checks it in a
// browser, decided from the raw answer alone (for the HTTP-level suites and the fuzz test):
// - an HTML answer (a page, Next's error and 404 pages) has the pages' policy with a nonce, and
//   every <script> it sends carries that nonce;
// - any other answer (JSON, a file, a redirect, a refusal of server.ts) has a policy that frames
//   nothing and runs nothing: the API's (lib/security/headers.ts), or the pages' one;
// - all of them: nosniff, same-origin referrers, DENY framing, COOP, the permissions policy,
//   HSTS (production build) and no-store, except Next's immutable build output and the icon.

const PAGE_CSP = /^default-src 'self'; script-src 'self' 'nonce-([A-Za-z0-9+/=]+)' 'strict-dynamic';/;
const PAGE_DIRECTIVES = ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "form-action 'self'"];

/** Paths whose answers may be cached (immutable build output, the icon). */
const CACHEABLE = (path: string) => path.startsWith("/_next/static/") || path === "/favicon.ico";

/** Problems with the answer's security headers; empty when it has them all. */
export function securityHeaderProblems(response: Pick<RawResponse, "status" | "headers" | "body">, path = ""): string[] {
  const problems: string[] = [];
  const h = response.headers;
  const one = (name: string) => {
    const value = h[name];
    return Array.isArray(value) ? value.join(", ") : value;
  };
  const expectHeader = (name: string, value: string) => {
    if (one(name) !== value) problems.push(`${name}: ${JSON.stringify(one(name))}, expected ${JSON.stringify(value)}`);
  };
  // What every kind shares (the production build's), without the policy and caching, checked below.
  for (const [name, value] of Object.entries(securityHeaders("api", { production: true }))) {
    if (name !== "Content-Security-Policy" && name !== "Cache-Control") expectHeader(name.toLowerCase(), value);
  }

  const csp = one("content-security-policy");
  const type = one("content-type") ?? "";
  if (!csp) {
    problems.push("no Content-Security-Policy");
  } else if (/^text\/html/i.test(type) || PAGE_CSP.test(csp)) {
    const nonce = PAGE_CSP.exec(csp)?.[1];
    if (!nonce) problems.push(`an HTML answer without the pages' policy and its nonce: ${csp}`);
    for (const directive of PAGE_DIRECTIVES) if (!csp.includes(directive)) problems.push(`CSP without ${directive}`);
    if (csp.includes("unsafe-eval")) problems.push("CSP with unsafe-eval in production");
    if (nonce && /^text\/html/i.test(type)) {
      for (const tag of response.body.match(/<script\b[^>]*>/g) ?? []) {
        if (!tag.includes(`nonce="${nonce}"`)) problems.push(`a script without the answer's nonce: ${tag.slice(0, 120)}`);
      }
    }
  } else if (csp !== API_CSP) {
    problems.push(`a non-HTML answer with neither policy: ${csp}`);
  }

  const cache = one("cache-control") ?? "";
  if (!(CACHEABLE(path) && response.status === 200) && !/\bno-store\b/.test(cache)) problems.push(`Cache-Control ${JSON.stringify(cache)}, expected no-store`);
  return problems;
}

/** The response's headers and status in one line, for failure messages. */
export function describeAnswer(response: { status: number; headers: IncomingHttpHeaders; body: string }): string {
  return `${response.status} ${response.headers["content-type"] ?? "(no type)"} ${response.body.slice(0, 160).replace(/\s+/g, " ")}`;
}
