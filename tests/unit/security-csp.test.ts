import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { API_CSP, buildCsp, createNonce, cspDirectives, headersBefore, isStaticAsset, nonceOf, securityHeaders } from "@/lib/security/headers";
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

describe("security headers, one policy per kind of answer", () => {
  const nonce = createNonce();

  it("sends HSTS in production only, on every kind", () => {
    for (const kind of ["page", "api", "static"] as const) {
      expect(securityHeaders(kind, { nonce, production: true })["Strict-Transport-Security"]).toMatch(/^max-age=\d{8,}; includeSubDomains$/);
      expect(securityHeaders(kind, { nonce, production: false })).not.toHaveProperty("Strict-Transport-Security");
    }
  });

  it("gives every kind nosniff, same-origin referrers, DENY framing, COOP and the permissions policy", () => {
    for (const kind of ["page", "api", "static"] as const) {
      expect(securityHeaders(kind, { nonce })).toMatchObject({
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "same-origin",
        "X-Frame-Options": "DENY",
        "Cross-Origin-Opener-Policy": "same-origin",
        "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
      });
    }
  });

  it("gives a page its nonce's policy and no-store", () => {
    const page = securityHeaders("page", { nonce });
    expect(page["Content-Security-Policy"]).toBe(buildCsp({ nonce }));
    expect(page["Cache-Control"]).toBe("no-store");
    expect(securityHeaders("page", { nonce, development: true })["Content-Security-Policy"]).toContain("'unsafe-eval'");
    expect(() => securityHeaders("page")).toThrow(); // a page without a nonce is a mistake, not a default
  });

  it("gives JSON, files and refusals a policy that lets nothing load, run or frame them, and no-store", () => {
    expect(API_CSP).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
    expect(securityHeaders("api")["Content-Security-Policy"]).toBe(API_CSP);
    expect(securityHeaders("api")["Cache-Control"]).toBe("no-store");
  });

  it("leaves Next's build output its own caching", () => {
    expect(securityHeaders("static")["Content-Security-Policy"]).toBe(API_CSP);
    expect(securityHeaders("static")).not.toHaveProperty("Cache-Control");
  });

  it("starts every answer, before Next, as a non-page one or a static file's", () => {
    expect(headersBefore("/subscribers?x=1")).toEqual(securityHeaders("api"));
    expect(headersBefore("/api/v1/branches")).toEqual(securityHeaders("api"));
    expect(headersBefore("//evil.example")).toEqual(securityHeaders("api"));
    expect(headersBefore("/_next/static/chunks/app.js?v=1")).toEqual(securityHeaders("static"));
    expect(headersBefore("/favicon.ico")).toEqual(securityHeaders("api")); // a route of the app, answering 405 to a DELETE

  });

  it("knows Next's immutable build output", () => {
    expect(isStaticAsset("/_next/static/chunks/app.js")).toBe(true);
    expect(isStaticAsset("/favicon.ico")).toBe(false);
    expect(isStaticAsset("/subscribers")).toBe(false);
    expect(isStaticAsset("/api/v1/branches")).toBe(false);
  });
});

describe("the sources keep one policy", () => {
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
  const sources = (dir: string): string[] =>
    fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) return rel.startsWith("lib/generated") ? [] : sources(rel);
      return /\.(ts|tsx|js|mjs)$/.test(e.name) ? [rel] : [];
    });
  const files = [...sources("app"), ...sources("lib"), ...sources("components"), "server.ts", "proxy.ts", "instrumentation.ts", "next.config.js"];
  const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");

  it("names the headers' values in lib/security/headers.ts only", () => {
    const values = /nosniff|default-src|frame-ancestors|max-age=63072000|camera=\(\)|X-Frame-Options|Strict-Transport-Security/i;
    const naming = files.filter((f) => f !== "lib/security/headers.ts" && values.test(read(f)));
    expect(naming).toEqual([]);
  });

  it("applies them in two places: server.ts for every answer, proxy.ts for pages (and server.ts's own refusals)", async () => {
    const applying = files.filter((f) => /\b(securityHeaders|headersBefore)\(/.test(read(f)) && f !== "lib/security/headers.ts");
    expect(applying.sort()).toEqual(["lib/server/incoming.ts", "proxy.ts", "server.ts"]);
    const { default: nextConfig } = (await import(/* @vite-ignore */ path.join(root, "next.config.js"))) as { default: Record<string, unknown> };
    expect(nextConfig).not.toHaveProperty("headers");
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
