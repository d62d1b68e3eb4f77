import { describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { baselineHeadersFor, goesThroughProxy, prepareIncoming, unparsableRequestAnswer, type Incoming } from "@/lib/server/incoming";
import HEADERS from "@/lib/security/static-headers.json";

// Issue 19, point 5: requests Next.js answers with a 500 are refused by the console's own server
// (server.ts) with a 4xx and the headers, before Next sees them.

const request = (over: Partial<Incoming> & { headers?: Incoming["headers"] } = {}): Incoming => ({
  method: "GET",
  url: "/subscribers",
  socket: { remoteAddress: "127.0.0.1" },
  ...over,
  headers: { host: "console.test", ...over.headers },
});
const status = (over: Partial<Incoming>) => prepareIncoming(request(over), 0)?.status ?? null;

describe("prepareIncoming refuses what Next would answer with a 500", () => {
  it("a path whose %-escapes do not decode as UTF-8 (400); the query is Next's to read", () => {
    for (const url of ["/api/v1/branches/%FF", "/api/v1/exports/%FF/download", "/branches/%FF/edit", "/api/auth/%FF", "/%C0%AF", "/branches/%E0%A4%A/edit", "/x/%", "/x/%zz"]) {
      const refused = prepareIncoming(request({ url }), 0);
      expect(refused?.status, url).toBe(400);
      expect(JSON.parse(refused!.body).error.code).toBe("bad_path");
      expect(refused!.headers["Content-Security-Policy"]).toBe(HEADERS.apiCsp);
    }
    for (const url of ["/api/v1/branches/%E2%82%AC", "/branches/54/edit", "/subscribers?x=%FF&y=%", "/a%20b", "/%F0%9F%98%80"]) expect(status({ url }), url).toBeNull();
  });

  it("a Next-Router-State-Tree header Next cannot read (400)", () => {
    for (const tree of ["garbage", "%7B", "%FF", "null", "[1]", encodeURIComponent('["",{"children":5}]'), "x".repeat(40_001)]) {
      expect(status({ headers: { rsc: "1", "next-router-state-tree": tree } }), tree.slice(0, 30)).toBe(400);
    }
    expect(status({ headers: { rsc: "1", "next-router-state-tree": encodeURIComponent('["",{"children":["__PAGE__",{}]},null,null]') } })).toBeNull();
  });

  it("a possible server action from another origin, or with an Origin that is no URL (403)", () => {
    const post = (headers: Incoming["headers"], url = "/subscribers") => status({ method: "POST", url, headers: { "content-length": "2", ...headers } });
    const action = { "next-action": "7f00", "content-type": "text/plain;charset=UTF-8" };
    expect(post({ ...action, origin: "http://console.test" })).toBeNull();
    expect(post({ ...action })).toBeNull();
    for (const origin of ["http://evil.example", "null", "garbage", "http://console.test.evil.example", "http://console.test, http://evil.example", "https://console.test:444"]) {
      expect(post({ ...action, origin }), origin).toBe(403);
      expect(post({ "content-type": "multipart/form-data; boundary=x", origin }), origin).toBe(403);
      expect(post({ "content-type": "application/x-www-form-urlencoded", origin }), origin).toBe(403);
    }
    // Under /api/ too: an unknown path there renders the 404 page, which runs the action check.
    expect(post({ ...action, origin: "null" }, "/api/V1/branches")).toBe(403);
    // Not a possible action (JSON): Next's (or the API's own check) to answer.
    expect(post({ "content-type": "application/json", origin: "http://evil.example" })).toBeNull();
    expect(post({ "content-type": "application/json", origin: "http://evil.example" }, "/api/v1/branches")).toBeNull();
  });
});

describe("prepareIncoming refuses bodies Next would buffer for the proxy", () => {
  const send = (method: string, url: string, headers: Incoming["headers"] = {}) => prepareIncoming(request({ method, url, headers }), 0);

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

  it("decides which paths go through the proxy as proxy.ts's matcher does", () => {
    const source = fs.readFileSync(path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../proxy.ts"), "utf8");
    const matcher = /matcher: \["([^"]+)"\]/.exec(source)?.[1];
    expect(matcher).toBe("/((?!_next/static/|favicon.ico$|api/v1/|api/health$).*)");
    const re = new RegExp(`^${matcher}$`);
    const paths = ["/", "/login", "/subscribers", "/api/auth/csrf", "/api/v1/branches", "/api/v1", "/api/V1/x", "/api/health", "/api/healthz", "/api/health/x",
      "/_next/static/chunks/a.js", "/_next/image", "/_next/data/x", "/favicon.ico", "/favicon.icon", "/subscribers/table-settings"];
    for (const p of paths) expect(goesThroughProxy(p), p).toBe(re.test(p));
  });
});

describe("unparsableRequestAnswer", () => {
  it("is a complete HTTP answer with the security headers and no body (the request may have been a HEAD)", () => {
    const answer = unparsableRequestAnswer(431);
    expect(answer).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(answer).toContain(`Content-Security-Policy: ${HEADERS.apiCsp}\r\n`);
    expect(answer).toContain("X-Content-Type-Options: nosniff\r\n");
    expect(answer).toContain("Content-Length: 0\r\n");
    expect(answer.endsWith("\r\n\r\n")).toBe(true);
  });
});

describe("baselineHeadersFor", () => {
  it("starts every answer with the API's headers and no-store, but leaves Next's build output its caching", () => {
    const page = Object.fromEntries(baselineHeadersFor("/subscribers"));
    expect(page["Content-Security-Policy"]).toBe(HEADERS.apiCsp);
    expect(page["Cache-Control"]).toBe("no-store");
    const chunk = Object.fromEntries(baselineHeadersFor("/_next/static/chunks/app.js"));
    expect(chunk["X-Content-Type-Options"]).toBe("nosniff");
    expect(chunk).not.toHaveProperty("Cache-Control");
  });
});
