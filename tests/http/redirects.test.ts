import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appEntries } from "../helpers/built-app";
import { Browser, rawRequest, startConsole, type ConsoleServer, type RawResponse } from "../helpers/console-server";

// Every return address, as an attacker spells it, against the production build over HTTP: the
// login page (anonymous and signed in), next-auth's callback, its callback-url cookie and its
// sign-out never answer 5xx and never send the browser to another origin. (Issue "Security,
// part 1", point 3; the property test of the one deciding function is tests/unit/return-to.test.ts.)

const PASSWORD = "redirect-password-123";
const USER = { email: "rita@redirect.test", password: PASSWORD, role: "staff" as const };

/** Hostile values of callbackUrl, as they appear (percent-encoded) in a query string. */
const HOSTILE = [
  "%2F%09%2Fevil.example",
  "%2F%09%5Cevil.example",
  "%09%2F%2Fevil.example",
  "%2F%0A%2Fevil.example",
  "%2F%0D%0A%2Fevil.example",
  "%5C%5Cevil.example",
  "%2F%5Cevil.example",
  "%2F%2Fevil.example",
  "%2F.%2F%2Fevil.example",
  "https%3A%2F%2Fevil.example",
  "https%3A%2F%2F127.0.0.1%40evil.example",
  "javascript%3Aalert(1)",
  "%2F%0A", "%2F%0D", "%2F%0B", "%2F%00", "%2F%7F", "%2F%FF", "%FF", "%2F%E2%80%A8", "%2F%C4%80", "%2F%F0%9F%98%80",
  "%0A", "%0D", "%0B", "%00", "%7F", "%E2%80%A8", "%C4%80", "%F0%9F%98%80",
  "%2Fsubscribers%3Fq%3D%0A%23%FF",
  "%2F%2509%2Fevil.example",
];

describe("return addresses over HTTP", () => {
  let server: ConsoleServer;
  let origin: string;
  let signedIn: Browser;

  beforeAll(async () => {
    server = await startConsole("pglite", { users: [USER] });
    origin = new URL(server.url).origin;
    signedIn = new Browser(server.url);
    expect((await signedIn.signIn(USER.email, PASSWORD)).status).toBe(200);
  });
  afterAll(async () => server?.close());

  function expectOnConsole(where: string | undefined, what: string) {
    expect(where, what).toBeTruthy();
    expect(new URL(where!, `${origin}/login`).origin, `${what}: ${where}`).toBe(origin);
    expect(where, `${what}: a legal header value`).toMatch(/^[\x21-\x7e]+$/);
  }
  function expectNo5xx(response: RawResponse, what: string) {
    expect(response.status, `${what}: ${response.body.slice(0, 300)}`).toBeLessThan(500);
  }

  it.each(HOSTILE)("/login?callbackUrl=%s stays on the console, signed in or not", async (value) => {
    const anonymous = await rawRequest(server.url, `/login?callbackUrl=${value}`);
    expectNo5xx(anonymous, "anonymous");
    expect(anonymous.status).toBe(200);
    // The form is handed the same decided path (what it gives router.replace after signing in).
    const handed = /callbackUrl&quot;:&quot;([^&]*)&quot;|\\"callbackUrl\\":\\"([^\\]*)\\"/.exec(anonymous.body);
    if (handed) expectOnConsole(handed[1] ?? handed[2], "the form's callbackUrl");

    const redirected = await signedIn.request(`/login?callbackUrl=${value}`);
    expectNo5xx(redirected, "signed in");
    expect([303, 307, 308]).toContain(redirected.status);
    expectOnConsole(redirected.headers.location, "signed in");
  });

  it.each(HOSTILE)("next-auth's callback, its callback-url cookie and its sign-out stay on the console: %s", async (value) => {
    const browser = new Browser(server.url);
    // GET with ?callbackUrl= plants next-auth's callback-url cookie.
    const csrf = await browser.request(`/api/auth/csrf?callbackUrl=${value}`);
    expectNo5xx(csrf, "csrf");
    const planted = browser.jar.get("next-auth.callback-url");
    if (planted) expectOnConsole(decodeURIComponent(planted), "the callback-url cookie");
    const csrfToken = (JSON.parse(csrf.body) as { csrfToken: string }).csrfToken;

    // The callback, with the value in the body (as next-auth's client sends window.location.href).
    const decoded = (() => {
      try {
        return decodeURIComponent(value);
      } catch {
        return value;
      }
    })();
    const signIn = await browser.request("/api/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: USER.email, password: PASSWORD, csrfToken, json: "true", callbackUrl: decoded }).toString(),
    });
    expectNo5xx(signIn, "sign-in");
    expect(signIn.status, signIn.body).toBe(200);
    expectOnConsole(JSON.parse(signIn.body).url, "sign-in url");

    // Without json=true next-auth answers with a Location header.
    const again = new Browser(server.url);
    const token = await again.csrf();
    const located = await again.request("/api/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: USER.email, password: PASSWORD, csrfToken: token, callbackUrl: decoded }).toString(),
    });
    expectNo5xx(located, "sign-in redirect");
    expectOnConsole(located.headers.location, "sign-in Location");

    // Sign-out: its callbackUrl from the body, else the planted cookie.
    const bodies: Record<string, string>[] = [{ csrfToken, json: "true", callbackUrl: decoded }, { csrfToken, json: "true" }, { csrfToken, callbackUrl: decoded }];
    for (const [i, body] of bodies.entries()) {
      // A callback-url cookie planted some other way (a sibling site) than through next-auth.
      if (i === 1) browser.jar.set("next-auth.callback-url", encodeURIComponent(decoded));
      const out = await browser.request("/api/auth/signout", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(body).toString(),
      });
      expectNo5xx(out, "sign-out");
      expectOnConsole(out.headers.location ?? JSON.parse(out.body).url, "sign-out");
    }
    browser.jar.set("next-auth.callback-url", encodeURIComponent(decoded));
    expectNo5xx(await browser.request("/api/auth/csrf"), "csrf with a planted cookie");
    expectNo5xx(await browser.request("/api/auth/providers"), "providers with a planted cookie");
  });

  it("the proxy's way to /login keeps a hostile page address as a legal, same-origin callbackUrl", async () => {
    for (const path of ["/subscribers?x=%0A%FF", "/subscribers/%2F%2Fevil.example", "/branches?name=%E2%80%A8"]) {
      const response = await rawRequest(server.url, path);
      expectNo5xx(response, path);
      expect(response.status).toBe(307);
      expectOnConsole(response.headers.location, path);
    }
  });

  it("sends a signed-out navigation to every console page of the build to /login, and back to it", async () => {
    const pages = appEntries().filter((e) => e.kind === "page" && e.file.startsWith("(console)/")).map((e) => e.pattern.replace(/\[[^\]]+\]/g, "1"));
    expect(pages).toEqual(expect.arrayContaining(["/trash", "/views", "/subscribers", "/account/two-factor"]));
    // A list query its page refuses (a 400 for a signed-in user) too.
    for (const path of [...pages, "/subscribers?page=abc"]) {
      const response = await rawRequest(server.url, path);
      expect({ status: response.status, location: response.headers.location?.replace(/\?.*/, "") }, path).toEqual({ status: 307, location: "/login" });
      const back = new URL(response.headers.location!, origin).searchParams.get("callbackUrl");
      expect(back?.split("?")[0], path).toBe(path.split("?")[0]);
    }
  });
});
