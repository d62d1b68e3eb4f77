import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, startConsole, type ConsoleServer } from "../helpers/console-server";
import { startNextServer } from "../helpers/next-server";
import { freePort } from "../helpers/pg-cluster";
import { testDbKinds } from "../helpers/db";

// Sessions end when they should, against the production build over HTTP with real cookies:
// sign-out, deactivation, demotion and 8 hours after sign-in, on next-auth's own session route
// as on every page and API route; the cookie name follows the console's URL; a guessable secret
// keeps the server from starting. (Issue "Security, part 1", points 4 and 5.)

const PASSWORD = "session-password-123";
const users = ["ann", "bob", "cat", "dan", "eve"].map((name) => ({
  email: `${name}@session.test`,
  password: PASSWORD,
  role: name === "bob" ? ("staff" as const) : ("admin" as const),
}));

const now = () => Math.floor(Date.now() / 1000);

for (const kind of testDbKinds()) {
  describe(`sessions over HTTP on ${kind}`, () => {
    let server: ConsoleServer;

    beforeAll(async () => {
      server = await startConsole(kind, { users });
    });
    afterAll(async () => server?.close());

    async function signedIn(email: string) {
      const browser = new Browser(server.url);
      expect((await browser.signIn(email, PASSWORD)).status).toBe(200);
      return browser;
    }
    const session = async (browser: Browser) => {
      const response = await browser.request("/api/auth/session");
      return { body: JSON.parse(response.body) as { user?: { email: string; role: string }; expires?: string }, setCookies: response.setCookies };
    };
    const api = async (browser: Browser) => (await browser.request("/api/v1/branches")).status;

    it("answers the session from the database and never re-issues the cookie or pushes its expiry", async () => {
      const browser = await signedIn("ann@session.test");
      const first = await session(browser);
      expect(first.body.user).toMatchObject({ email: "ann@session.test", role: "admin" });
      expect(first.setCookies).toEqual([]);
      const expires = Date.parse(first.body.expires!);
      expect(expires - Date.now()).toBeGreaterThan(7.9 * 3600_000);
      expect(expires - Date.now()).toBeLessThanOrEqual(8 * 3600_000);
      await new Promise((r) => setTimeout(r, 1100));
      const second = await session(browser);
      expect(second.body.expires).toBe(first.body.expires); // use does not extend it
      expect(second.setCookies).toEqual([]);
    });

    it("ends on next-auth's own sign-out: the old cookie names nobody anywhere", async () => {
      const browser = await signedIn("ann@session.test");
      const stolen = browser.sessionToken()!;
      const csrfToken = await browser.csrf();
      const out = await browser.request("/api/auth/signout", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, json: "true", callbackUrl: "/login" }).toString(),
      });
      expect(out.status).toBe(200);
      const replay = new Browser(server.url);
      replay.jar.set("next-auth.session-token", stolen);
      expect((await session(replay)).body).toEqual({});
      expect(await api(replay)).toBe(401);
      expect((await replay.request("/subscribers")).status).toBe(307);
    });

    it("ends 8 hours after sign-in, however busy, on the session route, pages and API alike", async () => {
      const browser = await signedIn("cat@session.test");
      const { sv, uid } = await readToken(browser.sessionToken()!, server.secret);
      const mint = async (sat: number) => {
        const b = new Browser(server.url);
        b.jar.set("next-auth.session-token", await encode({ token: { uid, sv, sat }, secret: server.secret }));
        return b;
      };
      const fresh = await mint(now() - 60);
      expect(await api(fresh)).toBe(200);
      const old = await mint(now() - 8 * 3600 - 5);
      expect(await api(old)).toBe(401);
      expect((await session(old)).body).toEqual({});
      expect((await old.request("/subscribers")).status).toBe(307);
      // A token without a sign-in time (as the console wrote before) is no session either.
      const legacy = new Browser(server.url);
      legacy.jar.set("next-auth.session-token", await encode({ token: { uid, sv, role: "admin" }, secret: server.secret }));
      expect(await api(legacy)).toBe(401);
    });

    if (kind === "postgres") {
      it("ends for good when the user is deactivated by hand-written SQL; reactivating does not revive the cookie", async () => {
        const browser = await signedIn("dan@session.test");
        const kept = browser.sessionToken()!;
        expect(await api(browser)).toBe(200);
        await server.sql!(`UPDATE users SET active = false WHERE email = 'dan@session.test'`);
        expect(await api(browser)).toBe(401);
        const dead = await session(browser);
        expect(dead.body).toEqual({});
        expect(dead.setCookies.join()).toMatch(/next-auth\.session-token=;/); // the dead cookie is cleared
        await server.sql!(`UPDATE users SET active = true WHERE email = 'dan@session.test'`);
        const replay = new Browser(server.url);
        replay.jar.set("next-auth.session-token", kept);
        expect(await api(replay)).toBe(401);
        expect((await session(replay)).body).toEqual({});
        expect(await api(await signedIn("dan@session.test"))).toBe(200); // a new sign-in works
      });

      it("follows a demotion at once on the session route and every guard", async () => {
        const browser = await signedIn("eve@session.test");
        expect((await session(browser)).body.user?.role).toBe("admin");
        expect((await browser.request("/branches/new")).status).toBe(200);
        await server.sql!(`UPDATE users SET role = 'staff' WHERE email = 'eve@session.test'`);
        expect((await session(browser)).body.user?.role).toBe("staff");
        expect((await browser.request("/branches/new")).status).toBe(403);
        const create = await browser.request("/api/v1/branches", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ name: "Demoted" }),
        });
        expect(create.status).toBe(403);
      });
    }
  });
}

async function readToken(token: string, secret: string) {
  const { decode } = await import("next-auth/jwt");
  const decoded = await decode({ token, secret });
  return { uid: decoded!.uid as number, sv: decoded!.sv as number };
}

describe("the session cookie's name follows NEXTAUTH_URL (one setting)", () => {
  let server: ConsoleServer;
  beforeAll(async () => {
    // Served over plain HTTP here, but configured as the https:// console it sits behind.
    server = await startConsole("pglite", { users: [users[0]!], env: { NEXTAUTH_URL: "https://console.example.com" } });
  });
  afterAll(async () => server?.close());

  it("on an https console, only the __Secure- cookie is a session: a plain-named one planted over http is not", async () => {
    const browser = new Browser(server.url);
    expect((await browser.signIn(users[0]!.email, PASSWORD)).status).toBe(200);
    const token = browser.jar.get("__Secure-next-auth.session-token");
    expect(token).toBeTruthy();
    expect(browser.jar.has("next-auth.session-token")).toBe(false);
    expect((await browser.request("/api/v1/branches")).status).toBe(200);

    const planted = new Browser(server.url);
    planted.jar.set("next-auth.session-token", token!);
    expect((await planted.request("/api/v1/branches")).status).toBe(401);
    expect(JSON.parse((await planted.request("/api/auth/session")).body)).toEqual({});
  });
});

describe("a guessable NEXTAUTH_SECRET", () => {
  it.each(["changeme", "x", " ", "   \t   ", "0123456789abcdef0123456789abcde"])("keeps the server from starting: %j", async (secret) => {
    const port = await freePort();
    const started = startNextServer({ port, env: { NEXTAUTH_SECRET: secret, NEXTAUTH_URL: `http://127.0.0.1:${port}`, DATABASE_URL: "", PGLITE_DIR: "/nonexistent/never-opened" }, timeoutMs: 30_000 });
    started.then((server) => server.stop(), () => {}); // one that starts anyway must not outlive the test
    await expect(started).rejects.toThrow(/NEXTAUTH_SECRET .*(shorter than 32 bytes|only whitespace).*openssl rand -base64 32/s);
  });
});
