import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nonceOf, securityHeaders, type AnswerKind } from "@/lib/security/headers";
import { Browser, rawRequest, startConsole, type ConsoleServer, type RawResponse } from "../helpers/console-server";
import { describeAnswer, securityHeaderProblems } from "../helpers/security-headers";

// One answer of every kind, against the production build over HTTP, each carrying exactly the
// headers its one policy gives it (lib/security/headers.ts): a page, a JSON route, a static file,
// a 404 of each, a redirect of the proxy and one of Next's own, the icon (and Next's 405 to a
// DELETE of it), the health check, a
// refusal of server.ts, and the same-origin rule's 403 on a page and on the API
// (lib/security/origin.ts). docs/decisions/0020-policy-one-place-per-concern.md says who sets what.

const PASSWORD = "policy-password-123";
const USER = { email: "pat@policy.test", password: PASSWORD, role: "admin" as const };

describe("one policy per kind of answer, over HTTP", () => {
  let server: ConsoleServer;
  let signedIn: Browser;

  beforeAll(async () => {
    server = await startConsole("pglite", { users: [USER] });
    signedIn = new Browser(server.url);
    expect((await signedIn.signIn(USER.email, PASSWORD)).status).toBe(200);
  });
  afterAll(async () => server?.close());

  const one = (response: RawResponse, name: string) => [response.headers[name.toLowerCase()] ?? []].flat().join(", ") || undefined;

  /** The answer carries its kind's headers, value for value (the caching of Next's own answers aside). */
  function expectPolicy(response: RawResponse, kind: AnswerKind, what: string) {
    const nonce = nonceOf(one(response, "content-security-policy"));
    if (kind === "page") expect(nonce, `${what}: a page's nonce — ${describeAnswer(response)}`).toBeTruthy();
    for (const [name, value] of Object.entries(securityHeaders(kind, { nonce: nonce ?? undefined, production: true }))) {
      // Next's error pages keep their own `private, no-cache, no-store, …`.
      if (name === "Cache-Control") expect(one(response, name), `${what}: ${name}`).toMatch(/\bno-store\b/);
      else expect(one(response, name), `${what}: ${name} — ${describeAnswer(response)}`).toBe(value);
    }
    expect(securityHeaderProblems(response, what.split(" ")[0]), what).toEqual([]);
  }

  it("keeps an idle connection open longer than a proxy or a client does (65 s)", async () => {
    const answer = await rawRequest(server.url, "/api/health", { headers: { connection: "keep-alive" } });
    expect(answer.status).toBe(200);
    expect(answer.headers.connection).toBe("keep-alive");
    expect(answer.headers["keep-alive"]).toBe("timeout=65");
  });

  it("a page, and the 404 page of an unknown path: the pages' policy with the answer's nonce", async () => {
    const login = await rawRequest(server.url, "/login");
    expect(login.status).toBe(200);
    expectPolicy(login, "page", "/login");
    const again = await rawRequest(server.url, "/login");
    expect(nonceOf(one(again, "content-security-policy"))).not.toBe(nonceOf(one(login, "content-security-policy")));

    const branches = await signedIn.request("/branches");
    expect(branches.status).toBe(200);
    expectPolicy(branches, "page", "/branches");

    const missing = await rawRequest(server.url, "/no-such-page");
    expect(missing.status).toBe(404);
    expectPolicy(missing, "page", "/no-such-page");
  });

  it("a JSON route (200, 401), its 404 and the health check: the non-page policy", async () => {
    const listed = await signedIn.request("/api/v1/branches");
    expect(listed.status).toBe(200);
    expectPolicy(listed, "api", "/api/v1/branches (signed in)");
    const anonymous = await rawRequest(server.url, "/api/v1/branches");
    expect(anonymous.status).toBe(401);
    expectPolicy(anonymous, "api", "/api/v1/branches (anonymous)");
    const unknown = await rawRequest(server.url, "/api/v1/no-such-thing");
    expect(unknown.status).toBe(404);
    expectPolicy(unknown, "api", "/api/v1/no-such-thing");
    const health = await rawRequest(server.url, "/api/health");
    expect(health.status).toBe(200);
    expectPolicy(health, "api", "/api/health");
  });

  it("a static file: the static policy, with Next's own caching; the icon, a route's answer, the non-page one", async () => {
    const login = await rawRequest(server.url, "/login");
    const chunk = /<script[^>]+src="(\/_next\/static\/[^"]+\.js(?:\?dpl=[^"]*)?)"/.exec(login.body)?.[1];
    expect(chunk).toBeTruthy();
    const file = await rawRequest(server.url, chunk!);
    expect(file.status).toBe(200);
    expect(one(file, "cache-control")).toContain("immutable");
    for (const [name, value] of Object.entries(securityHeaders("static", { production: true }))) expect(one(file, name), `${chunk}: ${name}`).toBe(value);
    const icon = await rawRequest(server.url, "/favicon.ico");
    expect(icon.status).toBe(200);
    expectPolicy(icon, "api", "/favicon.ico");
    const deleted = await rawRequest(server.url, "/favicon.ico", { method: "DELETE" });
    expect(deleted.status).toBe(405);
    expectPolicy(deleted, "api", "/favicon.ico (DELETE)");
    const missing = await rawRequest(server.url, "/_next/static/chunks/no-such-chunk.js");
    expect(missing.status).toBe(404);
    for (const [name, value] of Object.entries(securityHeaders("static", { production: true }))) expect(one(missing, name), `missing chunk: ${name}`).toBe(value);
  });

  it("a redirect of the proxy (to /login) is a page's answer; Next's own (of `//x`) a non-page one", async () => {
    const toLogin = await rawRequest(server.url, "/subscribers");
    expect(toLogin.status).toBe(307);
    expect(one(toLogin, "location")).toMatch(/\/login\?callbackUrl=%2Fsubscribers$/);
    expectPolicy(toLogin, "page", "/subscribers (redirect)");
    const slashes = await rawRequest(server.url, "//subscribers");
    expect(slashes.status).toBe(308);
    expectPolicy(slashes, "api", "//subscribers (Next's redirect)");
  });

  it("a refusal of server.ts before Next: the non-page policy", async () => {
    const trace = await rawRequest(server.url, "/login", { method: "TRACE" });
    expect(trace.status).toBe(405);
    expectPolicy(trace, "api", "/login (TRACE)");
  });

  it("a write from another site is refused by the one same-origin rule, on a page and on the API", async () => {
    const origin = { origin: "http://evil.example" };
    const action = await signedIn.request("/branches/new", { method: "POST", headers: { ...origin, "next-action": "7f00", "content-type": "text/plain;charset=UTF-8" }, body: "[]" });
    expect(action.status).toBe(403);
    expect(JSON.parse(action.body).error.code).toBe("cross_site_request");
    expectPolicy(action, "page", "/branches/new (cross-site action)");
    const form = await rawRequest(server.url, "/api/auth/callback/credentials", { method: "POST", headers: { ...origin, "content-type": "application/x-www-form-urlencoded" }, body: "email=x" });
    expect(form.status).toBe(403);

    const api = await signedIn.request("/api/v1/branches", { method: "POST", headers: { ...origin, "content-type": "application/json" }, body: JSON.stringify({ name: "Evil" }) });
    expect(api.status).toBe(403);
    expect(JSON.parse(api.body).error.code).toBe("cross_site_request");
    expectPolicy(api, "api", "/api/v1/branches (cross-site POST)");

    const own = new URL(server.url).origin;
    const same = await signedIn.request("/api/v1/branches", { method: "POST", headers: { origin: own, "content-type": "application/json" }, body: JSON.stringify({ name: "Same site" }) });
    expect(same.status).toBe(201);
    const browser = new Browser(server.url);
    const csrfToken = await browser.csrf();
    const fields = new URLSearchParams({ email: USER.email, password: PASSWORD, csrfToken, json: "true" }).toString();
    const signIn = await browser.request("/api/auth/callback/credentials", { method: "POST", headers: { origin: own, "content-type": "application/x-www-form-urlencoded" }, body: fields });
    expect(signIn.status, describeAnswer(signIn)).toBe(200);
    expect(browser.sessionToken()).toBeTruthy();
  });
});
