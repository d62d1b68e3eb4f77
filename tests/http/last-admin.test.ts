import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, type ConsoleServer, type RawResponse, startConsole } from "../helpers/console-server";
import { testDbKinds } from "../helpers/db";
import { SSO_GROUPS, startIdentityProvider, type IdentityProvider, type TestAccount } from "../helpers/identity-provider";
import { waitingForLocks } from "../helpers/postgres";

// There is always at least one active administrator, whatever path changes the users (a trigger
// on users, answered 422 `last_admin`), over real HTTP against the production build: two admins
// demoting each other at once through PATCH /api/v1/users/{id}, and a directory sign-in whose
// groups would demote the last one (who signs in all the same, still an admin; audited).

const PASSWORD = "last-admin-password-7";
const FORM = { "content-type": "application/x-www-form-urlencoded" };
const JSON_BODY = { "content-type": "application/json" };
const ACCOUNTS: Record<string, TestAccount> = {
  solo: { email: "solo@last.test", email_verified: true, name: "Solo Admin", groups: [SSO_GROUPS.admin] },
};

for (const kind of testDbKinds()) {
  describe(`the last active administrator over HTTP on ${kind}`, () => {
    let server: ConsoleServer;
    let idp: IdentityProvider | undefined;

    beforeAll(async () => {
      server = await startConsole(kind, {
        users: [
          { email: "ann@last.test", password: PASSWORD, role: "admin" },
          { email: "bob@last.test", password: PASSWORD, role: "admin" },
        ],
        env: async (origin) => {
          await idp?.close();
          idp = await startIdentityProvider({ consoleOrigins: [origin], accounts: ACCOUNTS });
          // The race below holds the admins' rows until both requests wait for them: on a loaded
          // machine the first may wait longer than the default statement timeout (5 s), which ends it.
          return { ...idp.env, DATABASE_STATEMENT_TIMEOUT_MS: "30000" };
        },
      });
    });
    afterAll(async () => {
      await server?.close();
      await idp?.close();
    });

    /** The whole single sign-on of `login` in `browser`, as tests/http/sso.test.ts walks it; where the callback sends the browser. */
    async function ssoSignIn(browser: Browser, login: string): Promise<string> {
      const csrfToken = await browser.csrf();
      const started = await browser.request("/api/auth/signin/oidc", { method: "POST", headers: FORM, body: new URLSearchParams({ csrfToken, callbackUrl: "/branches", json: "true" }).toString() });
      const authorize = new URL((JSON.parse(started.body) as { url: string }).url);
      const person = new Browser(idp!.issuer);
      let response = await person.request(`${authorize.pathname}${authorize.search}`);
      for (let hops = 0; hops < 10; hops++) {
        const next = new URL(response.headers.location!, idp!.issuer);
        if (next.origin !== idp!.issuer) {
          const done = await browser.request(`${next.pathname}${next.search}`);
          expect(done.status, done.body).toBe(302);
          return done.headers.location!;
        }
        response = next.pathname.startsWith("/interaction/")
          ? await person.request(next.pathname, { method: "POST", headers: FORM, body: new URLSearchParams({ prompt: "login", login, password: "any" }).toString() })
          : await person.request(`${next.pathname}${next.search}`);
      }
      throw new Error("the provider never sent the browser back");
    }

    const signedIn = async (email: string) => {
      const browser = new Browser(server.url);
      expect((await browser.signIn(email, PASSWORD)).status).toBe(200);
      return browser;
    };
    const usersOf = async (browser: Browser) =>
      (JSON.parse((await browser.request("/api/v1/users?page=1")).body) as { data: { id: number; email: string; role: string; active: boolean }[] }).data;

    // PostgreSQL alone serves two requests' transactions at once (PGlite one at a time).
    if (kind === "postgres")
      it("lets one of two admins demoting each other at once through PATCH win; the other gets 422 last_admin", async () => {
        const ann = await signedIn("ann@last.test");
        const bob = await signedIn("bob@last.test");
        const ids = Object.fromEntries((await usersOf(ann)).map((u) => [u.email, u.id]));
        // Both requests pass their guards, then wait here for the admins' rows: they then run one after the other.
        const hold = new pg.Client({ connectionString: server.databaseUrl! });
        await hold.connect();
        try {
          await hold.query("BEGIN");
          await hold.query("SELECT id FROM users WHERE role = 'admin' AND active FOR UPDATE");
          const patch = (browser: Browser, id: number, body: object) =>
            browser.request(`/api/v1/users/${id}`, { method: "PATCH", headers: { ...JSON_BODY, origin: server.url }, body: JSON.stringify(body) });
          const sent = [patch(ann, ids["bob@last.test"]!, { active: false }), patch(bob, ids["ann@last.test"]!, { role: "staff" })] as const;
          // A request answered before both wait is the failure to report, with what it said.
          let early: RawResponse | undefined;
          for (const request of sent) void request.then((answer) => (early ??= answer), () => {});
          const answers = Promise.all(sent);
          const deadline = Date.now() + 25_000;
          while ((await waitingForLocks(hold)) < 2) {
            if (early) throw new Error(`a change was answered before both waited: ${early.status} ${early.body}`);
            if (Date.now() > deadline) throw new Error("the two changes never both waited");
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          await hold.query("COMMIT");
          const [toBob, toAnn] = await answers;
          expect([toBob.status, toAnn.status].sort()).toEqual([200, 422]);
          const refused = [toBob, toAnn].find((a) => a.status === 422)!;
          expect(JSON.parse(refused.body).error).toMatchObject({ code: "last_admin", message: expect.stringMatching(/last active administrator/) });
        } finally {
          await hold.query("ROLLBACK").catch(() => {});
          await hold.end();
        }
        const rows = await server.sql!(`SELECT email FROM users WHERE role = 'admin' AND active`);
        expect(rows).toHaveLength(1);
        // Put both back as they were.
        await server.sql!(`UPDATE users SET role = 'admin', active = true WHERE email IN ('ann@last.test', 'bob@last.test')`);
      });

    it("lets the last admin sign in through the directory when their groups would demote them: still an admin, the refusal audited", async () => {
      ACCOUNTS.solo!.groups = [SSO_GROUPS.admin]; // the directory as it was (the provider reads this object at each sign-in)
      const solo = new Browser(server.url);
      await ssoSignIn(solo, "solo");
      expect(JSON.parse((await solo.request("/api/auth/session")).body).user).toMatchObject({ email: "solo@last.test", role: "admin" });
      // Solo makes the password admins staff: solo is the one active admin left.
      for (const u of (await usersOf(solo)).filter((u) => u.email !== "solo@last.test" && u.role === "admin")) {
        const answer = await solo.request(`/api/v1/users/${u.id}`, { method: "PATCH", headers: { ...JSON_BODY, origin: server.url }, body: JSON.stringify({ role: "staff" }) });
        expect(answer.status, answer.body).toBe(200);
      }
      expect((await usersOf(solo)).filter((u) => u.role === "admin" && u.active).map((u) => u.email)).toEqual(["solo@last.test"]);

      // The directory now puts them in the staff group (with a branch group): they sign in, still an admin of every branch.
      ACCOUNTS.solo!.groups = [SSO_GROUPS.staff, `${SSO_GROUPS.branchPrefix}Nowhere`];
      const later = new Browser(server.url);
      expect(await ssoSignIn(later, "solo")).toBe(`${server.url}/branches`);
      expect(JSON.parse((await later.request("/api/auth/session")).body).user).toMatchObject({ email: "solo@last.test", role: "admin" });
      expect((await usersOf(later)).find((u) => u.email === "solo@last.test")).toMatchObject({ role: "admin", active: true, branch_ids: null });
      const audit = await later.request("/audit?action=user.role_change_refused");
      expect(audit.status).toBe(200);
      expect(audit.body).toContain("user.role_change_refused");
      // The audit log says the reason in words (the stored reason, last_admin, is checked below).
      expect(audit.body).toContain("Kept the role of <bdi class=\"font-medium\">Solo Admin</bdi>: the last administrator");
      if (server.sql) {
        const rows = await server.sql(`SELECT actor_email, before->>'role' AS before, after->>'role' AS after, after->>'reason' AS reason FROM audit_events WHERE action = 'user.role_change_refused'`);
        expect(rows).toEqual([{ actor_email: "solo@last.test", before: "admin", after: "staff", reason: "last_admin" }]);
      }

      // Their own demotion through the API stays the 409 for yourself; another admin again lets the directory demote them.
      const soloId = (await usersOf(later)).find((u) => u.email === "solo@last.test")!.id;
      const self = await later.request(`/api/v1/users/${soloId}`, { method: "PATCH", headers: { ...JSON_BODY, origin: server.url }, body: JSON.stringify({ role: "staff" }) });
      expect(self.status).toBe(409);
      const annId = (await usersOf(later)).find((u) => u.email === "ann@last.test")!.id;
      expect((await later.request(`/api/v1/users/${annId}`, { method: "PATCH", headers: { ...JSON_BODY, origin: server.url }, body: JSON.stringify({ role: "admin" }) })).status).toBe(200);
      const demoted = new Browser(server.url);
      await ssoSignIn(demoted, "solo");
      expect(JSON.parse((await demoted.request("/api/auth/session")).body).user).toMatchObject({ role: "staff" });
    });
  });
}
