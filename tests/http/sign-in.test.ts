import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, rawRequest, startConsole, type ConsoleServer } from "../helpers/console-server";
import { testDbKinds } from "../helpers/db";

// Sign-in as an attacker sends it, against the production build over real HTTP: the pause after
// repeated failures holds under every body shape and path next-auth accepts, the caller's
// address is the socket's whatever the headers claim, and next-auth answers only the routes the
// console uses. (Issue "Security, part 1", points 1, 2 and 6.)

const PASSWORD = "right-password-123";
const MAX_FAILURES = 3;
const MAX_FAILURES_PER_IP = 8;

const users = ["form", "json", "twice", "segment", "casing", "admin", "spoofed", "victim", "proxied", "burst"].map((name) => ({
  email: `${name}@http.test`,
  password: PASSWORD,
  role: name === "admin" || name === "victim" ? ("admin" as const) : ("staff" as const),
}));

function form(fields: [string, string][]) {
  return { headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() };
}

for (const kind of testDbKinds()) {
  describe(`sign-in over HTTP on ${kind}`, () => {
    let server: ConsoleServer;

    beforeAll(async () => {
      server = await startConsole(kind, {
        users,
        env: { LOGIN_MAX_FAILURES: String(MAX_FAILURES), LOGIN_MAX_FAILURES_PER_IP: String(MAX_FAILURES_PER_IP) },
      });
    });
    afterAll(async () => server?.close());

    /** Locks an account with wrong passwords sent the plain way, from its own loopback address. */
    async function lock(email: string, from: string) {
      const browser = new Browser(server.url, from);
      for (let i = 0; i < MAX_FAILURES; i++) {
        const r = await browser.signIn(email, `wrong-${i}`);
        expect(r.status, r.body).toBe(401);
      }
      expect((await browser.signIn(email, PASSWORD)).status).toBe(429);
      return browser;
    }

    function expectPaused(response: { status: number; headers: Record<string, unknown>; setCookies: string[]; body: string }) {
      expect(response.status, response.body).toBe(429);
      expect(Number(response.headers["retry-after"])).toBeGreaterThan(0);
      expect(response.setCookies.some((c) => c.includes("session-token=") && !/session-token=;/.test(c))).toBe(false);
    }

    it("keeps a locked account locked when the right password comes as a JSON body", async () => {
      const attacker = await lock("json@http.test", "127.0.0.11");
      const csrfToken = await attacker.csrf();
      const response = await attacker.request("/api/auth/callback/credentials", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "json@http.test", password: PASSWORD, csrfToken, json: "true" }),
      });
      expectPaused(response);
      expect(attacker.sessionToken()).toBeUndefined();
    });

    it("keeps it locked under every spelling of the email that authorize() accepts", async () => {
      const attacker = await lock("casing@http.test", "127.0.0.12");
      for (const email of ["CASING@http.test", "  casing@HTTP.TEST  ", "Casing@Http.Test"]) {
        expectPaused(await attacker.signIn(email, PASSWORD));
        const csrfToken = await attacker.csrf();
        expectPaused(
          await attacker.request("/api/auth/callback/credentials", {
            method: "POST",
            headers: { "content-type": "application/json; charset=utf-8" },
            body: JSON.stringify({ email, password: PASSWORD, csrfToken, json: "true" }),
          }),
        );
      }
      // From another address too: the account is paused, not the address.
      expectPaused(await new Browser(server.url, "127.0.0.13").signIn("casing@http.test", PASSWORD));
    });

    it("refuses a body that names a field twice, before any password is checked", async () => {
      const attacker = await lock("twice@http.test", "127.0.0.14");
      const csrfToken = await attacker.csrf();
      // The old route read the first email (not locked), next-auth the last (locked, right password).
      for (const fields of [
        [["email", "nobody@http.test"], ["email", "twice@http.test"], ["password", PASSWORD], ["csrfToken", csrfToken], ["json", "true"]],
        [["email", "twice@http.test"], ["password", "wrong"], ["password", PASSWORD], ["csrfToken", csrfToken], ["json", "true"]],
      ] as [string, string][][]) {
        const response = await attacker.request("/api/auth/callback/credentials", { method: "POST", ...form(fields) });
        expect(response.status, response.body).toBe(400);
        expect(JSON.parse(response.body)).toMatchObject({ error: { code: "invalid_input" } });
      }
      const json = await attacker.request("/api/auth/callback/credentials", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: `{"email":"nobody@http.test","email":"twice@http.test","password":"${PASSWORD}","csrfToken":"${csrfToken}","json":"true"}`,
      });
      expect(json.status, json.body).toBe(400);
      // Other shapes next-auth would not read are refused too, never a 500.
      for (const [type, body] of [
        ["multipart/form-data; boundary=x", `--x\r\nContent-Disposition: form-data; name="email"\r\n\r\ntwice@http.test\r\n--x--\r\n`],
        ["text/plain", `email=twice@http.test&password=${PASSWORD}`],
        ["application/json", `["twice@http.test"]`],
        ["application/json", `{"email":{"$ne":""},"password":"x"}`],
        ["application/json", `{"email":`],
        ["application/x-www-form-urlencoded", `email=twice%40http.test&password=${PASSWORD}&role=admin`],
      ]) {
        const response = await attacker.request("/api/auth/callback/credentials", { method: "POST", headers: { "content-type": type! }, body: body! });
        expect([400, 415], `${type} ${body}: ${response.status} ${response.body}`).toContain(response.status);
      }
      expect(attacker.sessionToken()).toBeUndefined();
    });

    it("answers only the routes the console uses: an extra segment, other actions and methods are 404 or 405", async () => {
      const attacker = await lock("segment@http.test", "127.0.0.15");
      const csrfToken = await attacker.csrf();
      const body = form([["email", "segment@http.test"], ["password", PASSWORD], ["csrfToken", csrfToken], ["json", "true"]]);
      for (const target of ["/api/auth/callback/credentials/x", "/api/auth/callback/credentials/x/y", "/api/auth/signin/credentials", "/api/auth/callback/github", "/api/auth/_log", "/api/auth/session"]) {
        const response = await attacker.request(target, { method: "POST", ...body });
        expect([404, 405], `${target}: ${response.status}`).toContain(response.status);
      }
      for (const target of ["/api/auth/callback/credentials", "/api/auth/signout", "/api/auth/signin", "/api/auth/error", "/api/auth/verify-request", "/api/auth/nothing", "/api/auth/csrf/x"]) {
        const response = await attacker.request(target);
        expect([404, 405], `GET ${target}: ${response.status} ${response.body.slice(0, 200)}`).toContain(response.status);
      }
      expect((await attacker.request("/api/auth/callback/credentials")).headers.allow).toBe("POST");
      expect(attacker.sessionToken()).toBeUndefined();
    });

    it("lets the same shapes sign in an account that is not locked (the form as next-auth's client sends it, and JSON)", async () => {
      const browser = new Browser(server.url, "127.0.0.16");
      const response = await browser.signIn("form@http.test", PASSWORD);
      expect(response.status, response.body).toBe(200);
      expect(browser.sessionToken()).toBeTruthy();
      const session = JSON.parse((await browser.request("/api/auth/session")).body);
      expect(session.user).toMatchObject({ email: "form@http.test", role: "staff" });

      const json = new Browser(server.url, "127.0.0.16");
      const csrfToken = await json.csrf();
      const signedIn = await json.request("/api/auth/callback/credentials", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "Form@Http.Test", password: PASSWORD, csrfToken, json: "true" }),
      });
      expect(signedIn.status, signedIn.body).toBe(200);
      expect(json.sessionToken()).toBeTruthy();
    });

    it("checks no more passwords for a burst sent at once than for tries sent one by one", async () => {
      // Each try from its own browser and address, all in flight together: before the try was
      // claimed under a lock, every one of them had its password checked (12 of 12 on admin).
      const browsers = Array.from({ length: MAX_FAILURES * 4 }, (_, i) => new Browser(server.url, `127.0.1.${i + 1}`));
      const tokens = await Promise.all(browsers.map((b) => b.csrf()));
      const answers = await Promise.all(
        browsers.map((b, i) =>
          b.request("/api/auth/callback/credentials", {
            method: "POST",
            ...form([["email", "burst@http.test"], ["password", `wrong-${i}`], ["csrfToken", tokens[i]!], ["json", "true"]]),
          }),
        ),
      );
      expect(answers.filter((r) => r.status === 401)).toHaveLength(MAX_FAILURES);
      expect(answers.filter((r) => r.status === 429)).toHaveLength(MAX_FAILURES * 3);
      expectPaused(await new Browser(server.url, "127.0.1.99").signIn("burst@http.test", PASSWORD));
    });

    it("locks an admin's account too", async () => {
      const attacker = await lock("admin@http.test", "127.0.0.17");
      const csrfToken = await attacker.csrf();
      expectPaused(
        await attacker.request("/api/auth/callback/credentials", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: "admin@http.test", password: PASSWORD, csrfToken, json: "true" }),
        }),
      );
    });

    it("takes the caller's address from the socket: spoofed X-Forwarded-For neither escapes the limit nor locks out another address", async () => {
      const attacker = new Browser(server.url, "127.0.0.21");
      // Failures "from" the victim's address (127.0.0.22), each with a fresh claimed address.
      for (let i = 0; i < MAX_FAILURES_PER_IP; i++) {
        const csrfToken = await attacker.csrf();
        const response = await attacker.request("/api/auth/callback/credentials", {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            "x-forwarded-for": `127.0.0.22, 198.51.100.${i}`,
            "x-real-ip": "127.0.0.22",
            forwarded: "for=127.0.0.22",
          },
          body: new URLSearchParams({ email: `nobody${i}@http.test`, password: "x", csrfToken, json: "true" }).toString(),
        });
        expect(response.status).toBe(401);
      }
      // The attacker's own address is paused, whatever it claims to be next…
      const csrfToken = await attacker.csrf();
      const paused = await attacker.request("/api/auth/callback/credentials", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": "203.0.113.99" },
        body: new URLSearchParams({ email: "spoofed@http.test", password: PASSWORD, csrfToken, json: "true" }).toString(),
      });
      expect(paused.status).toBe(429);
      // …and the victim, at the address the attacker named, signs in.
      const victim = new Browser(server.url, "127.0.0.22");
      expect((await victim.signIn("victim@http.test", PASSWORD)).status).toBe(200);
      expect(victim.sessionToken()).toBeTruthy();

      // The audit log records the socket's address as "From", never the claimed one.
      const audit = await victim.request("/audit?action=auth.sign_in_failed");
      expect(audit.status).toBe(200);
      expect(audit.body).toContain("127.0.0.21");
      expect(audit.body).not.toContain("198.51.100.");
      if (server.sql) {
        const rows = await server.sql(`SELECT DISTINCT ip FROM login_attempts WHERE email LIKE 'nobody%'`);
        expect(rows).toEqual([{ ip: "127.0.0.21" }]);
      }
    });

    it("answers GET /api/auth/callback/credentials with 405, not the library's 500", async () => {
      const response = await rawRequest(server.url, "/api/auth/callback/credentials");
      expect(response.status).toBe(405);
      expect(response.body).not.toMatch(/\n\s+at /);
    });
  });
}

describe("behind a trusted proxy (TRUST_PROXY=1), over HTTP", () => {
  let server: ConsoleServer;
  beforeAll(async () => {
    server = await startConsole("pglite", { env: { TRUST_PROXY: "1", LOGIN_MAX_FAILURES_PER_IP: "3" } });
  });
  afterAll(async () => server?.close());

  it("takes the hop the proxy wrote (one from the right), not the ones the client wrote", async () => {
    const proxy = new Browser(server.url, "127.0.0.31");
    let n = 0;
    const through = async (xff: string) => {
      const csrfToken = await proxy.csrf();
      return proxy.request("/api/auth/callback/credentials", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": xff },
        body: new URLSearchParams({ email: `someone${n++}@http.test`, password: "wrong", csrfToken, json: "true" }).toString(),
      });
    };
    // Client 198.51.100.1 (as the proxy saw it) fails three times, naming itself anything.
    for (const claimed of ["198.51.100.7", "10.0.0.1", "127.0.0.1"]) expect((await through(`${claimed}, 198.51.100.1`)).status).toBe(401);
    expect((await through("198.51.100.9, 198.51.100.1")).status).toBe(429);
    // Client 198.51.100.2 is another caller, even when it writes the paused address into its own hop.
    expect((await through("198.51.100.1, 198.51.100.2")).status).toBe(401);
    // A request that skipped the proxy has no hop of its own: it is the proxy's address (127.0.0.31), not paused.
    expect((await through("")).status).toBe(401);
  });
});
