import { describe, expect, it } from "vitest";
import { createRequire } from "node:module";
import { config as proxyConfig } from "@/proxy";
import { apiAllowedMethods } from "@/lib/openapi/methods";
import { API_CSP } from "@/lib/security/headers";
import { prepareIncoming, proxiedPaths, unparsableRequestAnswer, type Incoming } from "@/lib/server/incoming";

const goesThroughProxy = proxiedPaths(proxyConfig.matcher);

// Issue 19, point 5: requests Next.js answers with a 500 are refused by the console's own server
// (server.ts) with a 4xx and the headers, before Next sees them.

const request = (over: Partial<Incoming> & { headers?: Incoming["headers"] } = {}): Incoming => ({
  method: "GET",
  url: "/subscribers",
  socket: { remoteAddress: "127.0.0.1" },
  ...over,
  headers: { host: "console.test", ...over.headers },
});
const status = (over: Partial<Incoming>) => prepareIncoming(request(over), 0, goesThroughProxy)?.status ?? null;

describe("prepareIncoming refuses what Next would answer with a 500", () => {
  it("a path whose %-escapes do not decode as UTF-8 (400); the query is Next's to read", () => {
    for (const url of ["/api/v1/branches/%FF", "/api/v1/exports/%FF/download", "/branches/%FF/edit", "/api/auth/%FF", "/%C0%AF", "/branches/%E0%A4%A/edit", "/x/%", "/x/%zz"]) {
      const refused = prepareIncoming(request({ url }), 0, goesThroughProxy);
      expect(refused?.status, url).toBe(400);
      expect(JSON.parse(refused!.body).error.code).toBe("bad_path");
      expect(refused!.headers["Content-Security-Policy"]).toBe(API_CSP);
    }
    for (const url of ["/api/v1/branches/%E2%82%AC", "/branches/54/edit", "/subscribers?x=%FF&y=%", "/a%20b", "/%F0%9F%98%80"]) expect(status({ url }), url).toBeNull();
  });

  it("a Next-Router-State-Tree header Next cannot read (400)", () => {
    for (const tree of ["garbage", "%7B", "%FF", "null", "[1]", encodeURIComponent('["",{"children":5}]'), "x".repeat(40_001)]) {
      expect(status({ headers: { rsc: "1", "next-router-state-tree": tree } }), tree.slice(0, 30)).toBe(400);
    }
    expect(status({ headers: { rsc: "1", "next-router-state-tree": encodeURIComponent('["",{"children":["__PAGE__",{}]},null,null]') } })).toBeNull();
  });

  it("leaves a cross-site POST to the proxy and the API (lib/security/origin.ts decides, once)", () => {
    const headers = { "next-action": "7f00", "content-type": "text/plain;charset=UTF-8", "content-length": "2", origin: "http://evil.example" };
    expect(status({ method: "POST", url: "/subscribers", headers })).toBeNull();
  });
});

describe("prepareIncoming refuses bodies Next would buffer for the proxy", () => {
  const send = (method: string, url: string, headers: Incoming["headers"] = {}) => prepareIncoming(request({ method, url, headers }), 0, goesThroughProxy);

  it("refuses a sign-in body past next-auth's 8 KB by its declared length, before Next reads it (413); chunked is 411", () => {
    for (const url of ["/api/auth/callback/credentials", "/api/auth/signout", "/api/auth/anything?x=1"]) {
      expect(send("POST", url, { "content-length": String(8 * 1024 + 1) })?.status, url).toBe(413);
      expect(send("POST", url, { "content-length": String(12 * 1024 * 1024) })?.status, url).toBe(413);
      expect(send("POST", url, { "content-length": "8k" })?.status, url).toBe(413);
      expect(send("POST", url, { "transfer-encoding": "chunked" })?.status, url).toBe(411);
      expect(send("POST", url, { "content-length": String(8 * 1024) }), url).toBeNull();
    }
  });

  it("answers 405 to what no page answers (PUT, PATCH, DELETE, OPTIONS…), with or without a body", () => {
    for (const url of ["/login", "/subscribers", "/branches/1/edit", "/api/auth/session", "/api/V1/branches", "/no-such-page", "/subscribers/table-settings"]) {
      for (const method of ["PUT", "PATCH", "DELETE", "OPTIONS", "PROPFIND", "FOO"]) {
        for (const headers of [{}, { "content-length": String(12 * 1024 * 1024) }, { "transfer-encoding": "chunked" }]) {
          const refused = send(method, url, headers);
          expect(refused?.status, `${method} ${url}`).toBe(405);
          expect(refused!.headers.Allow).toBe("GET, HEAD, POST");
          expect(JSON.parse(refused!.body).error.code).toBe("method_not_allowed");
        }
      }
      for (const method of ["GET", "HEAD"]) expect(send(method, url), `${method} ${url}`).toBeNull();
    }
  });

  it("keeps a page POST (a server action) to Next's 1 MB, on every path behind the proxy", () => {
    for (const url of ["/subscribers", "/api/V1/branches", "/no-such-page"]) {
      expect(send("POST", url, { "content-length": String(1024 * 1024) }), url).toBeNull();
      expect(send("POST", url, { "content-length": String(1024 * 1024 + 1) })?.status, url).toBe(413);
      expect(send("POST", url, { "transfer-encoding": "chunked" })?.status, url).toBe(411);
    }
  });

  it("leaves the JSON API and the health check their own methods and limits", () => {
    for (const method of ["GET", "POST", "PATCH", "DELETE", "PUT", "OPTIONS"]) {
      expect(send(method, "/api/v1/branches/1", { "content-length": String(200 * 1024 * 1024) }), method).toBeNull();
      expect(send(method, "/api/v1/subscribers/imports", { "transfer-encoding": "chunked" }), method).toBeNull();
    }
    expect(send("HEAD", "/api/health")).toBeNull();
  });

  it("answers 405 in the API's error shape with Allow to a method an /api/v1 route does not have", () => {
    const allow = apiAllowedMethods();
    // server.ts names the route by the build's manifest; here, by hand.
    const routes: Record<string, string> = {
      "/api/v1/subscribers/merge": "/api/v1/subscribers/merge",
      "/api/v1/subscribers/merges/x1/undo": "/api/v1/subscribers/merges/[merge_id]/undo",
      "/api/v1/trash/subscribers": "/api/v1/trash/subscribers",
      "/api/v1/trash/subscribers/1": "/api/v1/trash/subscribers/[id]",
      "/api/v1/subscribers/1": "/api/v1/subscribers/[id]",
    };
    const apiAllow = (pathname: string) => allow.get(routes[pathname] ?? "");
    const send = (method: string, url: string) => prepareIncoming(request({ method, url }), 0, goesThroughProxy, apiAllow);
    for (const [method, url, expected] of [
      ["GET", "/api/v1/subscribers/merge", "OPTIONS, POST"],
      ["PUT", "/api/v1/subscribers/merges/x1/undo?x=1", "OPTIONS, POST"],
      ["HEAD", "/api/v1/subscribers/merge", "OPTIONS, POST"],
      ["POST", "/api/v1/trash/subscribers", "GET, HEAD, OPTIONS"],
      ["GET", "/api/v1/trash/subscribers/1", "DELETE, OPTIONS"],
      ["PROPFIND", "/api/v1/subscribers/1", "DELETE, GET, HEAD, OPTIONS, PATCH"],
    ] as const) {
      const refused = send(method, url);
      expect(refused?.status, `${method} ${url}`).toBe(405);
      expect(refused!.headers.Allow, `${method} ${url}`).toBe(expected);
      expect(refused!.headers["Content-Security-Policy"]).toBe(API_CSP);
      expect(JSON.parse(refused!.body).error).toMatchObject({ code: "method_not_allowed", message: expect.stringContaining(method) });
    }
    // Its own methods, OPTIONS (Next's answer, with Allow) and paths no operation has reach Next.
    for (const [method, url] of [["POST", "/api/v1/subscribers/merge"], ["OPTIONS", "/api/v1/subscribers/merge"], ["HEAD", "/api/v1/trash/subscribers"], ["DELETE", "/api/v1/trash/subscribers/1"], ["PUT", "/api/v1/no-such/path"]]) {
      expect(send(method!, url!), `${method} ${url}`).toBeNull();
    }
  });

  it("decides which paths go through the proxy by proxy.ts's matcher, as Next compiles and matches it", () => {
    // Next's own compiler of `config.matcher` (what `next build` writes to its manifest) and its matcher.
    const require = createRequire(import.meta.url);
    const { getMiddlewareMatchers } = require("next/dist/build/analysis/get-page-static-info") as {
      getMiddlewareMatchers: (matcher: string[], config: object) => { regexp: string }[];
    };
    const { getMiddlewareRouteMatcher } = require("next/dist/shared/lib/router/utils/middleware-route-matcher") as {
      getMiddlewareRouteMatcher: (m: { regexp: string }[]) => (pathname: string, req: object, query: object) => boolean;
    };
    const nextMatches = getMiddlewareRouteMatcher(getMiddlewareMatchers(proxyConfig.matcher, {}));
    const paths = ["/", "/login", "/subscribers", "/subscribers/1/edit", "/api/auth/csrf", "/api/v1/branches", "/api/v1", "/api/V1/x", "/API/v1/x", "/api/health",
      "/api/healthz", "/api/health/x", "/_next/static/chunks/a.js", "/_next/image", "/_next/data/x", "/favicon.ico", "/favicon.icon", "/subscribers/table-settings", "/x.rsc"];
    for (const p of paths) expect(goesThroughProxy(p), p).toBe(nextMatches(p, { headers: {}, cookies: {} }, {}));
    expect(goesThroughProxy("/subscribers")).toBe(true);
    expect(goesThroughProxy("/api/v1/branches")).toBe(false);
  });
});

describe("unparsableRequestAnswer", () => {
  it("is a complete HTTP answer with the security headers and no body (the request may have been a HEAD)", () => {
    const answer = unparsableRequestAnswer(431);
    expect(answer).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(answer).toContain(`Content-Security-Policy: ${API_CSP}\r\n`);
    expect(answer).toContain("X-Content-Type-Options: nosniff\r\n");
    expect(answer).toContain("Content-Length: 0\r\n");
    expect(answer.endsWith("\r\n\r\n")).toBe(true);
  });
});
