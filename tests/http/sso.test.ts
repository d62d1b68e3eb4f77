import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentTotp, newTotpSecret } from "@/lib/auth/totp";
import { Browser, rawRequest, startConsole, type ConsoleServer } from "../helpers/console-server";
import { testDbKinds } from "../helpers/db";
import { SSO_GROUPS, startIdentityProvider, type IdentityProvider, type TestAccount } from "../helpers/identity-provider";

// Single sign-on against a real OpenID provider (oidc-provider, on a loopback port) and the
// production build over real HTTP, the whole way a browser goes: the console's start (state,
// nonce, PKCE challenge), the provider's own sign-in form, the console's callback. Roles and
// branches come from the groups at every sign-in; refusals land on a page saying why; a state,
// nonce or PKCE verifier that is not this sign-in's own is refused.

const PASSWORD = "password-of-the-console-9";
const { admin: ADMINS, staff: STAFF, branchPrefix: BRANCH } = SSO_GROUPS;

const ACCOUNTS: Record<string, TestAccount> = {
  olu: { email: "olu@sso.test", email_verified: true, name: "Olu Admin", groups: [ADMINS, "unrelated"] },
  sam: { email: "sam@sso.test", email_verified: true, name: "Sam Staff", groups: [STAFF, `${BRANCH}Harbour`, `${BRANCH}No Such Branch`] },
  sid: { email: "sid@sso.test", email_verified: true, name: "Sid Staff", groups: [STAFF] },
  nog: { email: "nog@sso.test", email_verified: true, name: "No Group", groups: ["unrelated"] },
  unv: { email: "unv@sso.test", email_verified: false, name: "Unverified", groups: [ADMINS] },
  // A person the console already knows, by a password: the same user, now with the groups' role.
  lin: { email: "Linked@SSO.test", email_verified: true, name: "Someone Else", groups: [ADMINS] },
  off: { email: "off@sso.test", email_verified: true, groups: [STAFF] },
  // Moves between groups across the tests (the provider reads this object at each sign-in).
  mov: { email: "mov@sso.test", email_verified: true, groups: [ADMINS] },
  // Three people of the directory, one after another given one verified address.
  one: { email: "shared@sso.test", email_verified: true, name: "First Holder", groups: [STAFF] },
  two: { email: "shared@sso.test", email_verified: true, name: "Second Holder", groups: [STAFF] },
  // A branch group naming a branch whose name a trashed branch has too.
  qua: { email: "qua@sso.test", email_verified: true, groups: [STAFF, `${BRANCH}quay`] },
};

const FORM = { "content-type": "application/x-www-form-urlencoded" };
/** The password administrator's codes: REQUIRE_TWO_FACTOR=admins lets a password admin without them reach only the set-up. */
const BOSS_SECRET = newTotpSecret();

for (const kind of testDbKinds()) {
  describe(`single sign-on over HTTP on ${kind}`, () => {
    let server: ConsoleServer;
    let idp: IdentityProvider | undefined;
    let admin: Browser;

    beforeAll(async () => {
      server = await startConsole(kind, {
        users: [
          { email: "boss@sso.test", password: PASSWORD, role: "admin" },
          { email: "linked@sso.test", password: PASSWORD, role: "staff", name: "Linda Linked" },
          { email: "off@sso.test", password: PASSWORD, role: "staff" },
          { email: "clerk@sso.test", password: PASSWORD, role: "staff" },
        ],
        seed: async (run) => {
          await run(`INSERT INTO branches (name, updated_at) VALUES ('Harbour', now()), ('Hill', now())`);
          // A trashed branch first (the lower id), then a live one of the same name.
          await run(`INSERT INTO branches (name, updated_at, deleted_at) VALUES ('Quay', now(), now())`);
          await run(`INSERT INTO branches (name, updated_at) VALUES ('Quay', now())`);
          await run(`UPDATE users SET active = false WHERE email = 'off@sso.test'`);
          await run(`UPDATE users SET two_factor_secret = '${BOSS_SECRET}', two_factor_enabled_at = now() WHERE email = 'boss@sso.test'`);
        },
        env: async (origin) => {
          await idp?.close();
          idp = await startIdentityProvider({ consoleOrigins: [origin], accounts: ACCOUNTS });
          // Administrators who sign in with a password must set up codes; single sign-on ones are not asked.
          return { ...idp.env, REQUIRE_TWO_FACTOR: "admins" };
        },
      });
      admin = new Browser(server.url);
      expect((await admin.signIn("boss@sso.test", PASSWORD, { code: currentTotp(BOSS_SECRET) })).status).toBe(200);
    });
    afterAll(async () => {
      await server?.close();
      await idp?.close();
    });

    /** The console's start: next-auth's answer names the provider's authorization address. */
    async function start(browser: Browser, callbackUrl = "/branches"): Promise<URL> {
      const csrfToken = await browser.csrf();
      const response = await browser.request("/api/auth/signin/oidc", { method: "POST", headers: FORM, body: new URLSearchParams({ csrfToken, callbackUrl, json: "true" }).toString() });
      expect(response.status, response.body).toBe(200);
      return new URL((JSON.parse(response.body) as { url: string }).url);
    }

    /** The person's side at the provider: its sign-in form, then back towards the console; the address it sends them to. */
    async function atProvider(authorize: URL, login: string): Promise<URL> {
      const person = new Browser(idp!.issuer);
      let response = await person.request(`${authorize.pathname}${authorize.search}`);
      for (let hops = 0; hops < 10; hops++) {
        const location = response.headers.location;
        expect(location, response.body).toBeTruthy();
        const next = new URL(location!, idp!.issuer);
        if (next.origin !== idp!.issuer) return next;
        if (next.pathname.startsWith("/interaction/")) {
          const form = await person.request(next.pathname);
          expect(form.body).toContain('name="login"');
          response = await person.request(next.pathname, { method: "POST", headers: FORM, body: new URLSearchParams({ prompt: "login", login, password: "any" }).toString() });
        } else {
          response = await person.request(`${next.pathname}${next.search}`);
        }
      }
      throw new Error("the provider never sent the browser back");
    }

    /** The whole sign-in of `login`: where the console's callback sends the browser. */
    async function signIn(browser: Browser, login: string, callbackUrl?: string): Promise<string> {
      const back = await atProvider(await start(browser, callbackUrl), login);
      const done = await browser.request(`${back.pathname}${back.search}`);
      expect(done.status, done.body).toBe(302);
      return done.headers.location!;
    }

    const userByEmail = async (email: string) => {
      const response = await admin.request(`/api/v1/users?email=${encodeURIComponent(email)}`);
      expect(response.status, response.body).toBe(200);
      return (JSON.parse(response.body) as { data: { id: number; email: string; name: string; role: string; branch_ids: number[] | null; active: boolean }[] }).data.find((u) => u.email === email);
    };
    const branchId = async (name: string) => {
      const response = await admin.request(`/api/v1/branches?name=${encodeURIComponent(name)}`);
      return (JSON.parse(response.body) as { data: { id: number; name: string }[] }).data.find((b) => b.name === name)!.id;
    };
    const sessionOf = async (browser: Browser) => JSON.parse((await browser.request("/api/auth/session")).body) as { user?: { email: string; role: string } };

    it("shows the button on /login, and starts with PKCE (S256), state and nonce", async () => {
      const login = await rawRequest(server.url, "/login");
      expect(login.body).toContain("Sign in with Test Directory");
      const authorize = await start(new Browser(server.url));
      expect(authorize.origin).toBe(idp!.issuer);
      const p = authorize.searchParams;
      expect(p.get("response_type")).toBe("code");
      expect(p.get("code_challenge_method")).toBe("S256");
      expect(p.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(p.get("state")).toBeTruthy();
      expect(p.get("nonce")).toBeTruthy();
      expect(p.get("redirect_uri")).toBe(`${server.url}/api/auth/callback/oidc`);
    });

    it("creates an administrator on first sign-in from the admin group, who lands where they were going", async () => {
      const browser = new Browser(server.url);
      const landed = await signIn(browser, "olu", "/branches?page=1");
      expect(landed).toBe(`${server.url}/branches?page=1`);
      expect(browser.sessionToken()).toBeTruthy();
      expect((await sessionOf(browser)).user).toMatchObject({ email: "olu@sso.test", role: "admin" });
      expect(await userByEmail("olu@sso.test")).toMatchObject({ name: "Olu Admin", role: "admin", branch_ids: null, active: true });
      // REQUIRE_TWO_FACTOR=admins does not send them to set up codes: their provider asked for what it asks.
      expect((await browser.request("/users")).status).toBe(200);
      expect((await browser.request("/api/v1/users")).status).toBe(200);
      // But a token cannot tell how it was made: none is made for them until they set up codes.
      const token = await browser.request("/api/v1/tokens", {
        method: "POST",
        headers: { "content-type": "application/json", origin: server.url },
        body: JSON.stringify({ name: "sso", scope: "read", expires_at: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10) }),
      });
      expect(token.status, token.body).toBe(403);
      expect(JSON.parse(token.body)).toMatchObject({ error: { code: "two_factor_required" } });
    });

    it("gives a staff member the branches their branch groups name (unknown names give nothing)", async () => {
      const browser = new Browser(server.url);
      await signIn(browser, "sam");
      expect((await sessionOf(browser)).user?.role).toBe("staff");
      expect((await userByEmail("sam@sso.test"))?.branch_ids).toEqual([await branchId("Harbour")]);
      const branches = JSON.parse((await browser.request("/api/v1/branches")).body) as { data: { name: string }[] };
      expect(branches.data.map((b) => b.name)).toEqual(["Harbour"]);
      // No branch group at all: every branch.
      await signIn(new Browser(server.url), "sid");
      expect((await userByEmail("sid@sso.test"))?.branch_ids).toBeNull();
    });

    it("refuses someone in none of the groups, and an unverified email, on a page that says why; nobody is created", async () => {
      for (const [login, reason, words] of [
        ["nog", "no_group", "not in a group"],
        ["unv", "unverified_email", "not verified"],
      ] as const) {
        const browser = new Browser(server.url);
        const landed = await signIn(browser, login);
        expect(landed).toBe(`${server.url}/login/refused?reason=${reason}`);
        expect(browser.sessionToken()).toBeUndefined();
        const page = await browser.request(new URL(landed).pathname + new URL(landed).search);
        expect(page.status).toBe(200);
        expect(page.body).toContain(words);
        expect(await userByEmail(ACCOUNTS[login]!.email!.toLowerCase())).toBeUndefined();
      }
      if (server.sql) {
        const rows = await server.sql(`SELECT actor_email, after->>'reason' AS reason FROM audit_events WHERE action = 'auth.sso_refused' ORDER BY id`);
        expect(rows).toEqual(expect.arrayContaining([{ actor_email: "nog@sso.test", reason: "no_group" }, { actor_email: "unv@sso.test", reason: "unverified_email" }]));
      }
    });

    it("signs in an existing user with that verified email as the same user, with the groups' role", async () => {
      const before = await userByEmail("linked@sso.test");
      const browser = new Browser(server.url);
      await signIn(browser, "lin");
      const after = await userByEmail("linked@sso.test");
      expect(after).toMatchObject({ id: before!.id, name: "Linda Linked", role: "admin", branch_ids: null });
      // The password still signs in too (it is not turned off).
      expect((await new Browser(server.url).signIn("linked@sso.test", PASSWORD)).status).toBe(200);
    });

    it("refuses a deactivated user, and a deactivation ends a single sign-on session at once", async () => {
      const refused = new Browser(server.url);
      expect(await signIn(refused, "off")).toBe(`${server.url}/login/refused?reason=deactivated`);
      expect(refused.sessionToken()).toBeUndefined();

      ACCOUNTS.mov!.groups = [ADMINS];
      const browser = new Browser(server.url);
      await signIn(browser, "mov");
      expect((await browser.request("/api/v1/branches")).status).toBe(200);
      const id = (await userByEmail("mov@sso.test"))!.id;
      const off = await admin.request(`/api/v1/users/${id}`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ active: false }) });
      expect(off.status, off.body).toBe(200);
      expect((await browser.request("/api/v1/branches")).status).toBe(401);
      expect(await signIn(new Browser(server.url), "mov")).toBe(`${server.url}/login/refused?reason=deactivated`);
      await admin.request(`/api/v1/users/${id}`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ active: true }) });
    });

    it("reads the groups again at every sign-in: demoted, scoped, then removed from the groups and refused", async () => {
      ACCOUNTS.mov!.groups = [STAFF, `${BRANCH}hill`];
      const browser = new Browser(server.url);
      await signIn(browser, "mov");
      expect(await userByEmail("mov@sso.test")).toMatchObject({ role: "staff", branch_ids: [await branchId("Hill")] });
      ACCOUNTS.mov!.groups = [];
      expect(await signIn(new Browser(server.url), "mov")).toBe(`${server.url}/login/refused?reason=no_group`);
    });

    it("gives a branch group the live branch of that name only, never a trashed one of the same name", async () => {
      await signIn(new Browser(server.url), "qua");
      const live = await branchId("Quay");
      expect((await userByEmail("qua@sso.test"))?.branch_ids).toEqual([live]);
      if (server.sql) {
        const [trashed] = await server.sql(`SELECT id FROM branches WHERE name = 'Quay' AND deleted_at IS NOT NULL`);
        expect(trashed!.id).not.toBe(live);
      }
    });

    it("never signs another subject in to a linked account: refused on a page saying why, audited; after an admin unlinks it, the next subject links it", async () => {
      const origin = { origin: server.url };
      // The administrator here signs in through the directory (the password admin would be sent to set up two-factor on /audit).
      const olu = new Browser(server.url);
      await signIn(olu, "olu");
      const first = new Browser(server.url);
      await signIn(first, "one");
      expect((await sessionOf(first)).user).toMatchObject({ email: "shared@sso.test", role: "staff" });
      const account = (await userByEmail("shared@sso.test"))!;
      expect(account.name).toBe("First Holder");

      // A second person of the directory, with the same verified email: refused, with the page.
      const second = new Browser(server.url);
      const landed = await signIn(second, "two");
      expect(landed).toBe(`${server.url}/login/refused?reason=subject_mismatch`);
      expect(second.sessionToken()).toBeUndefined();
      const page = await second.request(new URL(landed).pathname + new URL(landed).search);
      expect(page.status).toBe(200);
      expect(page.body).toContain("belongs to another sign-in");
      const refusals = await olu.request("/audit?action=auth.sso_refused");
      expect(refusals.body).toContain("linked to another sign-in account");
      if (server.sql) {
        const rows = await server.sql(`SELECT actor_id, actor_email, entity_id, after->>'subject' AS subject FROM audit_events WHERE action = 'auth.sso_refused' AND after->>'reason' = 'subject_mismatch'`);
        expect(rows).toEqual([{ actor_id: null, actor_email: "shared@sso.test", entity_id: String(account.id), subject: "two" }]);
      }
      // The first person still signs in, to the same account.
      const again = new Browser(server.url);
      await signIn(again, "one");
      expect((await sessionOf(again)).user).toMatchObject({ email: "shared@sso.test" });

      // Unlinking is an administrator's: staff get 403, a token (of any scope) gets token_scope.
      const clerk = new Browser(server.url);
      expect((await clerk.signIn("clerk@sso.test", PASSWORD)).status).toBe(200);
      const staffAnswer = await clerk.request(`/api/v1/users/${account.id}/sso`, { method: "DELETE", headers: origin });
      expect(staffAnswer.status, staffAnswer.body).toBe(403);
      expect(JSON.parse(staffAnswer.body).error.code).toBe("forbidden");
      // Minted by the administrator with codes set up: REQUIRE_TWO_FACTOR=admins gives a single sign-on admin without codes none.
      for (const scope of ["read", "export"]) {
        const made = await admin.request("/api/v1/tokens", {
          method: "POST",
          headers: { ...origin, "content-type": "application/json" },
          body: JSON.stringify({ name: `unlink ${scope}`, scope, expires_at: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10) }),
        });
        expect(made.status, made.body).toBe(201);
        const byToken = await rawRequest(server.url, `/api/v1/users/${account.id}/sso`, { method: "DELETE", headers: { authorization: `Bearer ${JSON.parse(made.body).token}` } });
        expect(byToken.status, byToken.body).toBe(403);
        expect(JSON.parse(byToken.body).error.code).toBe("token_scope");
      }
      expect((await sessionOf(again)).user).toMatchObject({ email: "shared@sso.test" });

      // An admin unlinks it: 204, audited, the holder's sessions end; again: 204, nothing more; an unknown user: 404.
      const unlinked = await olu.request(`/api/v1/users/${account.id}/sso`, { method: "DELETE", headers: origin });
      expect(unlinked.status, unlinked.body).toBe(204);
      expect(await sessionOf(again)).toEqual({});
      expect((await again.request("/api/v1/branches")).status).toBe(401);
      expect((await olu.request(`/api/v1/users/${account.id}/sso`, { method: "DELETE", headers: origin })).status).toBe(204);
      const unknown = await olu.request(`/api/v1/users/2000000000/sso`, { method: "DELETE", headers: origin });
      expect(unknown.status).toBe(404);
      expect(JSON.parse(unknown.body).error.code).toBe("not_found");
      const unlinks = await olu.request("/audit?action=user.sso_unlink");
      expect(unlinks.body).toContain("user.sso_unlink");
      if (server.sql) {
        const rows = await server.sql(`SELECT entity_id, before->>'subject' AS subject FROM audit_events WHERE action = 'user.sso_unlink'`);
        expect(rows).toEqual([{ entity_id: String(account.id), subject: "one" }]);
      }

      // The next subject to sign in with that email links the account (audited); the first is now the one refused.
      const next = new Browser(server.url);
      await signIn(next, "two");
      expect((await sessionOf(next)).user).toMatchObject({ email: "shared@sso.test" });
      expect((await userByEmail("shared@sso.test"))?.id).toBe(account.id);
      expect((await olu.request("/audit?action=user.sso_link")).body).toContain("shared@sso.test");
      if (server.sql) {
        const rows = await server.sql(`SELECT after->>'subject' AS subject FROM audit_events WHERE action = 'user.sso_link' AND entity_id = $1 ORDER BY id`, [String(account.id)]);
        expect(rows).toEqual([{ subject: "two" }]); // "one" made the account (user.create), "two" linked it
      }
      expect(await signIn(new Browser(server.url), "one")).toBe(`${server.url}/login/refused?reason=subject_mismatch`);
    });

    it("refuses a tampered state, another sign-in's nonce, and another sign-in's PKCE verifier", async () => {
      // The state the provider sends back must be this browser's own.
      const browser = new Browser(server.url);
      const back = await atProvider(await start(browser), "olu");
      back.searchParams.set("state", "tampered");
      const tampered = await browser.request(`${back.pathname}${back.search}`);
      expect(tampered.headers.location).toContain("/api/auth/error?error=OAuthCallback");
      expect(browser.sessionToken()).toBeUndefined();

      // Two sign-ins in one browser: the first one's answer, with the second one's nonce (or
      // PKCE verifier) cookie, is refused: by the console (nonce) or at the provider (PKCE).
      for (const cookie of ["next-auth.nonce", "next-auth.pkce.code_verifier"]) {
        const first = new Browser(server.url);
        const firstBack = await atProvider(await start(first), "olu");
        const second = new Browser(server.url);
        await start(second);
        first.jar.set(cookie, second.jar.get(cookie)!);
        const answer = await first.request(`${firstBack.pathname}${firstBack.search}`);
        expect(answer.headers.location, cookie).toContain("/api/auth/error?error=OAuthCallback");
        expect(first.sessionToken(), cookie).toBeUndefined();
        // And where that address goes: /login, which says what happened.
        const error = await first.request(new URL(answer.headers.location!).pathname + new URL(answer.headers.location!).search);
        const login = await first.request(new URL(error.headers.location!, server.url).pathname + new URL(error.headers.location!, server.url).search);
        expect(login.headers.location ?? "").toContain("/login?");
      }
      if (server.sql) {
        const rows = await server.sql(`SELECT after FROM audit_events WHERE action = 'auth.sso_refused' AND after->>'reason' = 'provider_answer_refused' ORDER BY id`);
        expect(rows.map((r) => JSON.stringify(r.after))).toEqual([expect.stringMatching(/state/), expect.stringMatching(/nonce/), expect.stringMatching(/PKCE|code_verifier|invalid_grant/)]);
      }
    });

    it("is refused by the provider itself without a PKCE challenge", async () => {
      const authorize = await start(new Browser(server.url));
      authorize.searchParams.delete("code_challenge");
      authorize.searchParams.delete("code_challenge_method");
      const back = await atProvider(authorize, "olu");
      expect(back.searchParams.get("error")).toBe("invalid_request");
      expect(back.searchParams.get("error_description")).toMatch(/PKCE/);
    });
  });
}

describe("PASSWORD_SIGN_IN=off, over HTTP", () => {
  let server: ConsoleServer;
  let idp: IdentityProvider | undefined;

  beforeAll(async () => {
    server = await startConsole("pglite", {
      users: [{ email: "boss@sso.test", password: PASSWORD, role: "admin" }],
      env: async (origin) => {
        await idp?.close();
        idp = await startIdentityProvider({ consoleOrigins: [origin], accounts: ACCOUNTS });
        return { ...idp.env, PASSWORD_SIGN_IN: "off" };
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await idp?.close();
  });

  it("hides the password form and refuses every password sign-in, in any body shape; single sign-on is the one provider", async () => {
    const login = await rawRequest(server.url, "/login");
    expect(login.body).toContain("Sign in with Test Directory");
    expect(login.body).not.toContain('type="password"');
    const browser = new Browser(server.url);
    for (const body of [
      new URLSearchParams({ email: "boss@sso.test", password: PASSWORD, csrfToken: await browser.csrf(), json: "true" }).toString(),
      JSON.stringify({ email: "boss@sso.test", password: PASSWORD, csrfToken: await browser.csrf(), json: "true" }),
    ]) {
      const type = body.startsWith("{") ? "application/json" : "application/x-www-form-urlencoded";
      const response = await browser.request("/api/auth/callback/credentials", { method: "POST", headers: { "content-type": type }, body });
      expect(response.status, response.body).toBe(403);
      expect(JSON.parse(response.body).error.code).toBe("password_sign_in_off");
      expect(browser.sessionToken()).toBeUndefined();
    }
    const providers = JSON.parse((await browser.request("/api/auth/providers")).body) as Record<string, unknown>;
    expect(Object.keys(providers)).toEqual(["oidc"]);
  });
});
