import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildCsp, createNonce, cspDirectives, nonceOf } from "@/lib/security/csp";
import { API_CSP, apiSecurityHeaders, applyApiSecurityHeaders, applySecurityHeaders, baseSecurityHeaders, isStaticAsset } from "@/lib/security/headers";
import { unavailablePage } from "@/lib/security/unavailable-page";

const directives = (policy: string) =>
  new Map(policy.split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));

describe("createNonce", () => {
  it("is 128 random bits in base64, different every time", () => {
    const nonces = new Set(Array.from({ length: 1000 }, createNonce));
    expect(nonces.size).toBe(1000);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });
});

describe("buildCsp", () => {
  const nonce = createNonce();
  const policy = buildCsp({ nonce });
  const d = directives(policy);

  it("allows scripts by this nonce only, and what they load", () => {
    expect(d.get("script-src")).toEqual(["'self'", `'nonce-${nonce}'`, "'strict-dynamic'"]);
    expect(policy).not.toContain("unsafe-eval");
    expect(d.get("script-src")).not.toContain("'unsafe-inline'");
  });

  it("has the fixed lockdown directives", () => {
    expect(d.get("object-src")).toEqual(["'none'"]);
    expect(d.get("base-uri")).toEqual(["'none'"]);
    expect(d.get("frame-ancestors")).toEqual(["'none'"]);
    expect(d.get("form-action")).toEqual(["'self'"]);
    expect(d.get("default-src")).toEqual(["'self'"]);
    expect(d.get("img-src")).toEqual(["'self'", "data:", "blob:"]);
    expect(d.get("font-src")).toEqual(["'self'"]);
    expect(d.get("connect-src")).toEqual(["'self'"]);
  });

  it("keeps inline styles without a nonce (a nonce would make browsers ignore 'unsafe-inline')", () => {
    expect(d.get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);
  });

  it("adds 'unsafe-eval' in development only", () => {
    expect(directives(buildCsp({ nonce, development: true })).get("script-src")).toContain("'unsafe-eval'");
  });

  it("is one header line that Next can read the nonce back from", () => {
    expect(policy).not.toMatch(/[\r\n]/);
    expect(nonceOf(policy)).toBe(nonce);
  });

  it("refuses a nonce that is short or could break out of the header", () => {
    for (const bad of ["", "abc", "x".repeat(15), `${"a".repeat(20)}' 'unsafe-inline`, `${"a".repeat(20)};script-src *`]) {
      expect(() => cspDirectives({ nonce: bad })).toThrow();
    }
  });
});

describe("security headers", () => {
  it("sends HSTS in production only", () => {
    expect(baseSecurityHeaders(true)["Strict-Transport-Security"]).toMatch(/^max-age=\d{8,}; includeSubDomains$/);
    expect(baseSecurityHeaders(false)).not.toHaveProperty("Strict-Transport-Security");
  });

  it("sets nosniff, the referrer policy and no-store, keeping a no-store already there", () => {
    const headers = applySecurityHeaders(new Headers({ "Cache-Control": "public, max-age=60" }), false);
    expect(headers.get("x-content-type-options")).toBe("nosniff");
    expect(headers.get("referrer-policy")).toBe("same-origin");
    expect(headers.get("cache-control")).toBe("no-store");
    const kept = applySecurityHeaders(new Headers({ "Cache-Control": "private, no-store, max-age=0" }), false);
    expect(kept.get("cache-control")).toBe("private, no-store, max-age=0");
  });

  it("gives JSON and file answers a policy that lets nothing load, run or frame them", () => {
    expect(API_CSP).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
    const headers = applyApiSecurityHeaders(new Headers(), true);
    expect(Object.fromEntries(headers)).toEqual(Object.fromEntries(new Headers(apiSecurityHeaders(true))));
    expect(headers.get("content-security-policy")).toBe(API_CSP);
    expect(headers.get("cache-control")).toBe("no-store");
  });

  it("next.config.js sends the same headers on every /api/v1 and /api/health answer (the proxy skips them)", async () => {
    const env = process.env as Record<string, string | undefined>;
    const before = env.NODE_ENV;
    env.NODE_ENV = "production"; // what `next build` evaluates the config with
    try {
      const { default: config } = (await import(/* @vite-ignore */ `${path.resolve("next.config.js")}?production=${Date.now()}`)) as {
        default: { headers(): Promise<{ source: string; headers: { key: string; value: string }[] }[]> };
      };
      const rules = await config.headers();
      expect(rules.map((r) => r.source).sort()).toEqual(["/api/health", "/api/v1/:path*"]);
      for (const rule of rules) {
        expect(Object.fromEntries(rule.headers.map((h) => [h.key, h.value]))).toEqual(apiSecurityHeaders(true));
      }
    } finally {
      env.NODE_ENV = before;
    }
  });

  it("knows Next's immutable build output", () => {
    expect(isStaticAsset("/_next/static/chunks/app.js")).toBe(true);
    expect(isStaticAsset("/subscribers")).toBe(false);
    expect(isStaticAsset("/api/v1/branches")).toBe(false);
  });
});

describe("the 503 page", () => {
  it("has no script, styles by the nonce and reloads itself", () => {
    const html = unavailablePage("abcdefghijklmnopqrstuv==");
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('<style nonce="abcdefghijklmnopqrstuv==">');
    expect(html).toMatch(/<meta http-equiv="refresh" content="\d+">/);
    expect(html).toContain("The database is unavailable, retrying…");
  });
});
