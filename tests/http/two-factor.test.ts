import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentTotp, newRecoveryCodes, newTotpSecret, recoveryCodeHash } from "@/lib/auth/totp";
import { builtServerActions } from "../helpers/built-app";
import { Browser, startConsole, type ConsoleServer } from "../helpers/console-server";
import { testDbKinds } from "../helpers/db";

// Two-factor codes of password sign-ins, against the production build over real HTTP: an enrolled
// user gets in only with the right password AND a valid, unused code, whatever the shape of the
// body; wrong codes count toward the same pause as wrong passwords; an admin's reset ends the
// user's sessions. Setting it up asks for the current password before the secret is shown, and
// turning it on or off ends the user's other sessions.

const PASSWORD = "right-password-123";
const MAX_FAILURES = 3;
const NAMES = ["nocode", "replay", "recovery", "lock", "shapes", "target", "plain"] as const;
const secrets = Object.fromEntries(NAMES.map((n) => [n, newTotpSecret()])) as Record<(typeof NAMES)[number], string>;
const recovery = newRecoveryCodes();
const email = (name: string) => `${name}@two-factor.test`;

/**
 * Waits, if need be, for a fresh 30 s time step, so that the requests that follow all meet the
 * server in the step the codes were made in: one step later, the previous step's code is out of
 * the window and reads as wrong rather than used.
 */
async function awayFromStepEdge(needMs = 12_000) {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/** Not enrolled: they set it up (and turn it off) themselves over HTTP. */
const SELF = ["setup", "guess", "toggle"] as const;

const users = [
  ...[...NAMES, ...SELF].map((name) => ({ email: email(name), password: PASSWORD, role: "staff" as const })),
  { email: email("admin"), password: PASSWORD, role: "admin" as const },
];

/** A server action of the build, posted as the browser's page posts it. */
function callAction(browser: Browser, name: string, input: unknown) {
  const found = builtServerActions().find((a) => a.name === name);
  if (!found) throw new Error(`no server action ${name} in the build`);
  return browser.request(found.page, {
    method: "POST",
    headers: { "next-action": found.id, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component", origin: browser.baseUrl },
    body: JSON.stringify([input]),
  });
}
const secretIn = (body: string) => /"secret":"([A-Z2-7]{32})"/.exec(body)?.[1];

/** The error next-auth's answer names (its `url`'s `error`), or null. */
function errorOf(response: { body: string }): string | null {
  const { url } = JSON.parse(response.body) as { url?: string };
  return url ? new URL(url).searchParams.get("error") : null;
}

for (const kind of testDbKinds()) {
  describe(`two-factor sign-in over HTTP on ${kind}`, () => {
    let server: ConsoleServer;

    beforeAll(async () => {
      server = await startConsole(kind, {
        users,
        env: { LOGIN_MAX_FAILURES: String(MAX_FAILURES), LOGIN_MAX_FAILURES_PER_IP: "100" },
        // Every user but "plain" is enrolled; "recovery" also has recovery codes.
        seed: async (run) => {
          for (const name of NAMES.filter((n) => n !== "plain")) {
            await run(`UPDATE users SET two_factor_secret = '${secrets[name]}', two_factor_enabled_at = now() WHERE email = '${email(name)}'`);
          }
          for (const code of recovery) {
            await run(`INSERT INTO recovery_codes (user_id, code_hash) SELECT id, '${recoveryCodeHash(code)}' FROM users WHERE email = '${email("recovery")}'`);
          }
        },
      });
    });
    afterAll(async () => server?.close());

    const json = async (browser: Browser, fields: Record<string, unknown>, raw?: string) => {
      const csrfToken = await browser.csrf();
      return browser.request("/api/auth/callback/credentials", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: raw?.replace("{csrf}", csrfToken) ?? JSON.stringify({ ...fields, csrfToken, json: "true" }),
      });
    };
    const form = async (browser: Browser, fields: [string, string][]) => {
      const csrfToken = await browser.csrf();
      return browser.request("/api/auth/callback/credentials", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams([...fields, ["csrfToken", csrfToken], ["json", "true"]]).toString(),
      });
    };

    it("asks an enrolled user for the code (two_factor_required) and signs nobody in without one", async () => {
      const browser = new Browser(server.url, "127.0.2.1");
      for (const response of [
        await browser.signIn(email("nocode"), PASSWORD),
        await browser.signIn(email("nocode"), PASSWORD, { code: "" }),
        await json(browser, { email: email("nocode"), password: PASSWORD }),
      ]) {
        expect(response.status, response.body).toBe(401);
        expect(errorOf(response)).toBe("two_factor_required");
      }
      // A wrong password says nothing about the code.
      const wrong = await browser.signIn(email("nocode"), "wrong-password");
      expect(errorOf(wrong)).toBe("CredentialsSignin");
      expect(browser.sessionToken()).toBeUndefined();
      // The right password without a code is not a failure: three of them do not pause the account.
      const ok = await browser.signIn(email("nocode"), PASSWORD, { code: currentTotp(secrets.nocode) });
      expect(ok.status, ok.body).toBe(200);
      expect(browser.sessionToken()).toBeTruthy();
    });

    it("refuses a wrong code, and a code already used (or an older one)", async () => {
      const browser = new Browser(server.url, "127.0.2.2");
      const wrong = await browser.signIn(email("replay"), PASSWORD, { code: currentTotp(secrets.nocode) });
      expect(wrong.status).toBe(401);
      expect(errorOf(wrong)).toBe("CredentialsSignin");
      await awayFromStepEdge();
      const now = Date.now();
      const code = currentTotp(secrets.replay, now);
      expect((await browser.signIn(email("replay"), PASSWORD, { code })).status).toBe(200);
      expect(browser.sessionToken()).toBeTruthy();
      for (const replayed of [code, currentTotp(secrets.replay, now - 30_000)]) {
        const again = new Browser(server.url, "127.0.2.3");
        const response = await again.signIn(email("replay"), PASSWORD, { code: replayed });
        expect(response.status, response.body).toBe(401);
        expect(errorOf(response)).toBe("two_factor_code_used");
        expect(again.sessionToken()).toBeUndefined();
      }
    });

    it("accepts a recovery code once, however it is typed", async () => {
      const first = new Browser(server.url, "127.0.2.4");
      expect((await first.signIn(email("recovery"), PASSWORD, { code: ` ${recovery[0]!.toUpperCase()} ` })).status).toBe(200);
      const second = new Browser(server.url, "127.0.2.4");
      const again = await second.signIn(email("recovery"), PASSWORD, { code: recovery[0]!.replace("-", "") });
      expect(again.status).toBe(401);
      expect(errorOf(again)).toBe("two_factor_code_used");
      expect(second.sessionToken()).toBeUndefined();
      expect((await second.signIn(email("recovery"), PASSWORD, { code: recovery[1]! })).status).toBe(200);
    });

    it("counts wrong codes toward the same pause as wrong passwords: then even the right code waits", async () => {
      const browser = new Browser(server.url, "127.0.2.5");
      const wrongCode = String((Number(currentTotp(secrets.lock)) + 1) % 1_000_000).padStart(6, "0");
      expect((await browser.signIn(email("lock"), "wrong-password")).status).toBe(401);
      for (let i = 1; i < MAX_FAILURES; i++) expect((await browser.signIn(email("lock"), PASSWORD, { code: wrongCode })).status).toBe(401);
      const paused = await browser.signIn(email("lock"), PASSWORD, { code: currentTotp(secrets.lock) });
      expect(paused.status, paused.body).toBe(429);
      expect(Number(paused.headers["retry-after"])).toBeGreaterThan(0);
      expect(browser.sessionToken()).toBeUndefined();
    });

    it("lets no body shape past the code: duplicated, array, number, object and query fields are refused or ignored", async () => {
      const browser = new Browser(server.url, "127.0.2.6");
      const good = currentTotp(secrets.shapes);
      const refused = [
        await form(browser, [["email", email("shapes")], ["password", PASSWORD], ["code", "000000"], ["code", good]]),
        await form(browser, [["email", email("shapes")], ["password", PASSWORD], ["code", good], ["code", ""]]),
        await json(browser, { email: email("shapes"), password: PASSWORD, code: [good] }),
        await json(browser, { email: email("shapes"), password: PASSWORD, code: Number(good) }),
        await json(browser, { email: email("shapes"), password: PASSWORD, code: { $ne: "" } }),
        await json(browser, {}, `{"email":"${email("shapes")}","password":"${PASSWORD}","code":"000000","code":"${good}","csrfToken":"{csrf}","json":"true"}`),
        await form(browser, [["email", email("shapes")], ["password", PASSWORD], ["code[]", good]]),
      ];
      for (const response of refused) {
        expect(response.status, response.body).toBe(400);
        expect(JSON.parse(response.body)).toMatchObject({ error: { code: "invalid_input" } });
      }
      // A code in the query string is not the body's: still two_factor_required.
      const csrfToken = await browser.csrf();
      const query = await browser.request(`/api/auth/callback/credentials?code=${good}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ email: email("shapes"), password: PASSWORD, csrfToken, json: "true" }).toString(),
      });
      expect(errorOf(query)).toBe("two_factor_required");
      expect(browser.sessionToken()).toBeUndefined();
      // The one reading the console accepts, as JSON: signed in.
      const signedIn = await json(browser, { email: email("shapes"), password: PASSWORD, code: good });
      expect(signedIn.status, signedIn.body).toBe(200);
      expect(browser.sessionToken()).toBeTruthy();
    });

    it("ignores a code sent for a user without two-factor", async () => {
      const browser = new Browser(server.url, "127.0.2.7");
      expect((await browser.signIn(email("plain"), PASSWORD, { code: "123456" })).status).toBe(200);
    });

    it("asks for the current password before the secret is shown: none or a wrong one is refused and counts toward the sign-in pause", async () => {
      const browser = new Browser(server.url, "127.0.2.11");
      expect((await browser.signIn(email("setup"), PASSWORD)).status).toBe(200);
      for (const input of [{}, { password: "" }, { password: "wrong-password" }]) {
        const refused = await callAction(browser, "startTwoFactorAction", input);
        expect(refused.status).toBe(200);
        expect(refused.body).toContain('"ok":false');
        expect(refused.body).toMatch(/Enter your password|Your password is not right/);
        expect(secretIn(refused.body)).toBeUndefined();
      }
      const page = await browser.request("/account/two-factor");
      expect(page.status).toBe(200);
      expect(page.body).not.toContain("two-factor-secret");
      const shown = await callAction(browser, "startTwoFactorAction", { password: PASSWORD });
      const secret = secretIn(shown.body);
      expect(secret, shown.body.slice(0, 300)).toBeDefined();
      expect(shown.body).toContain("data:image/svg+xml;base64,");
      // The page never shows it afterwards: only the answer to the password did.
      expect((await browser.request("/account/two-factor")).body).not.toContain(secret!);

      // Wrong passwords here are wrong passwords at sign-in: enough of them pause both.
      const guess = new Browser(server.url, "127.0.2.12");
      expect((await guess.signIn(email("guess"), PASSWORD)).status).toBe(200);
      for (let i = 0; i < MAX_FAILURES; i++) expect((await callAction(guess, "startTwoFactorAction", { password: `wrong-${i}` })).body).toContain("Your password is not right");
      const paused = await callAction(guess, "startTwoFactorAction", { password: PASSWORD });
      expect(paused.body).toContain("Too many wrong passwords");
      expect(secretIn(paused.body)).toBeUndefined();
      const signIn = await new Browser(server.url, "127.0.2.13").signIn(email("guess"), PASSWORD);
      expect(signIn.status, signIn.body).toBe(429);
    });

    it("ends the user's other sessions when two-factor is turned on, and again when it is turned off; the session that did it goes on", async () => {
      const doer = new Browser(server.url, "127.0.2.14");
      const other = new Browser(server.url, "127.0.2.15");
      expect((await doer.signIn(email("toggle"), PASSWORD)).status).toBe(200);
      expect((await other.signIn(email("toggle"), PASSWORD)).status).toBe(200);
      expect((await other.request("/api/v1/subscribers")).status).toBe(200);

      const secret = secretIn((await callAction(doer, "startTwoFactorAction", { password: PASSWORD })).body)!;
      const on = await callAction(doer, "confirmTwoFactorAction", { code: currentTotp(secret) });
      expect(on.body).toContain('"ok":true');
      const recoveryCodes = (/"recoveryCodes":\[([^\]]*)\]/.exec(on.body)?.[1] ?? "").match(/[a-z0-9]{5}-[a-z0-9]{5}/g) ?? [];
      expect(recoveryCodes, on.body.slice(0, 400)).toHaveLength(10);
      const endedOn = await other.request("/api/v1/subscribers");
      expect(endedOn.status).toBe(401);
      const page = await other.request("/subscribers");
      expect(page.status).toBe(307);
      expect(page.headers.location).toMatch(/^\/login\?callbackUrl=/);
      expect((await doer.request("/api/v1/subscribers")).status).toBe(200);
      expect((await doer.request("/subscribers")).status).toBe(200);

      const third = new Browser(server.url, "127.0.2.16");
      expect((await third.signIn(email("toggle"), PASSWORD, { code: recoveryCodes[0]! })).status).toBe(200);
      expect((await third.request("/api/v1/subscribers")).status).toBe(200);
      const off = await callAction(doer, "turnOffTwoFactorAction", { password: PASSWORD, code: recoveryCodes[1]! });
      expect(off.body).toContain('"ok":true');
      expect((await third.request("/api/v1/subscribers")).status).toBe(401);
      expect((await third.request("/subscribers")).headers.location).toMatch(/^\/login\?callbackUrl=/);
      expect((await doer.request("/api/v1/subscribers")).status).toBe(200);
    });

    it("lets an admin reset someone's two-factor (204, audited): their sessions end, the password alone signs in", async () => {
      const target = new Browser(server.url, "127.0.2.8");
      expect((await target.signIn(email("target"), PASSWORD, { code: currentTotp(secrets.target) })).status).toBe(200);
      expect(JSON.parse((await target.request("/api/auth/session")).body).user).toMatchObject({ email: email("target") });

      const admin = new Browser(server.url, "127.0.2.9");
      expect((await admin.signIn(email("admin"), PASSWORD)).status).toBe(200);
      const list = JSON.parse((await admin.request(`/api/v1/users?email=${encodeURIComponent(email("target"))}`)).body) as { data: { id: number; email: string; two_factor: boolean }[] };
      const row = list.data.find((u) => u.email === email("target"))!;
      expect(row.two_factor).toBe(true);

      const staff = new Browser(server.url, "127.0.2.10");
      expect((await staff.signIn(email("plain"), PASSWORD)).status).toBe(200);
      const origin = { origin: server.url };
      expect((await staff.request(`/api/v1/users/${row.id}/two-factor`, { method: "DELETE", headers: origin })).status).toBe(403);

      const reset = await admin.request(`/api/v1/users/${row.id}/two-factor`, { method: "DELETE", headers: origin });
      expect(reset.status, reset.body).toBe(204);
      expect(JSON.parse((await target.request("/api/auth/session")).body)).toEqual({});
      const after = JSON.parse((await admin.request(`/api/v1/users?email=${encodeURIComponent(email("target"))}`)).body) as { data: { email: string; two_factor: boolean }[] };
      expect(after.data.find((u) => u.email === email("target"))!.two_factor).toBe(false);
      const audit = await admin.request("/audit?action=user.two_factor_reset");
      expect(audit.status).toBe(200);
      expect(audit.body).toContain("user.two_factor_reset");

      const again = new Browser(server.url, "127.0.2.8");
      expect((await again.signIn(email("target"), PASSWORD)).status).toBe(200);
      // Resetting yourself is /account's: 409.
      const me = JSON.parse((await admin.request(`/api/v1/users?email=${encodeURIComponent(email("admin"))}`)).body) as { data: { id: number; email: string }[] };
      const self = me.data.find((u) => u.email === email("admin"))!;
      expect((await admin.request(`/api/v1/users/${self.id}/two-factor`, { method: "DELETE", headers: origin })).status).toBe(409);
    });
  });
}

describe("REQUIRE_TWO_FACTOR=admins, over HTTP", () => {
  let server: ConsoleServer;
  beforeAll(async () => {
    server = await startConsole("pglite", {
      users: [
        { email: email("boss"), password: PASSWORD, role: "admin" },
        { email: email("enrolled-boss"), password: PASSWORD, role: "admin" },
        { email: email("clerk"), password: PASSWORD, role: "staff" },
      ],
      env: { REQUIRE_TWO_FACTOR: "admins" },
      seed: async (run) => {
        await run(`UPDATE users SET two_factor_secret = '${secrets.plain}', two_factor_enabled_at = now() WHERE email = '${email("enrolled-boss")}'`);
      },
    });
  });
  afterAll(async () => server?.close());

  it("sends an administrator without codes to set them up before any other page; staff and enrolled admins go on", async () => {
    const boss = new Browser(server.url, "127.0.3.1");
    expect((await boss.signIn(email("boss"), PASSWORD)).status).toBe(200);
    for (const page of ["/subscribers", "/users", "/account"]) {
      const response = await boss.request(page);
      expect(response.status, page).toBeGreaterThanOrEqual(300);
      expect(response.status, page).toBeLessThan(400);
      expect(response.headers.location, page).toMatch(/\/account\/two-factor\?required=1$/);
    }
    const setUp = await boss.request("/account/two-factor?required=1");
    expect(setUp.status).toBe(200);
    expect(setUp.body).toContain("requires two-factor sign-in");

    const clerk = new Browser(server.url, "127.0.3.2");
    expect((await clerk.signIn(email("clerk"), PASSWORD)).status).toBe(200);
    expect((await clerk.request("/subscribers")).status).toBe(200);

    const enrolled = new Browser(server.url, "127.0.3.3");
    expect((await enrolled.signIn(email("enrolled-boss"), PASSWORD, { code: currentTotp(secrets.plain) })).status).toBe(200);
    expect((await enrolled.request("/users")).status).toBe(200);
  });
});
