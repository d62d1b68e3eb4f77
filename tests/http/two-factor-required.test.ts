import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newApiToken, secretHash } from "@/lib/auth/secrets";
import { currentTotp, newTotpSecret } from "@/lib/auth/totp";
import { appEntries, builtServerActions } from "../helpers/built-app";
import { Browser, rawRequest, startConsole, type ConsoleServer, type RawResponse } from "../helpers/console-server";
import { testDbKinds } from "../helpers/db";
import { projectRoot } from "../helpers/next-server";

// REQUIRE_TWO_FACTOR as a property of the signed-in principal, against the production build over
// real HTTP: a session it covers that has not set up codes reaches the set-up page, its actions and
// sign-out, and nothing else (every route and server action of the build is tried); an API token
// of such a user, minted before the requirement was switched on, is refused too; once codes are
// set up, everything answers again (docs/decisions/0030-sign-in-two-factor-and-sso.md).

const PASSWORD = "required-two-factor-1";
const email = (name: string) => `${name}@required.test`;
const ENROLLED_SECRET = newTotpSecret();
/** A token of "pending", made while the requirement was off (seeded: it exists before the server starts with it on). */
const EARLIER_TOKEN = newApiToken();

/** The actions a pending session may run: the set-up's. Sign-out is tried on its own (it ends the session). */
const SET_UP_ACTIONS = ["startTwoFactorAction", "confirmTwoFactorAction", "turnOffTwoFactorAction"];
/** Open to anyone: the pending session gets what anyone gets. */
const OPEN_ACTIONS = ["setPasswordAction"];

const actionHeaders = (id: string, origin: string) => ({ "next-action": id, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component", origin });

/** The methods a route file exports (route handlers are named after them). */
function routeMethods(file: string): string[] {
  const source = fs.readFileSync(path.join(projectRoot, "app", file), "utf8");
  return [...source.matchAll(/export (?:const|async function|function) (GET|HEAD|POST|PUT|PATCH|DELETE)\b/g)].map((m) => m[1]!);
}

const errorCode = (answer: RawResponse): string | undefined => {
  try {
    return (JSON.parse(answer.body) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
};

for (const kind of testDbKinds()) {
  describe(`REQUIRE_TWO_FACTOR=everyone over HTTP on ${kind}`, () => {
    let server: ConsoleServer;
    const action = (name: string) => {
      const found = builtServerActions().find((a) => a.name === name);
      if (!found) throw new Error(`no server action ${name} in the build`);
      return found;
    };
    const call = (browser: Browser, name: string, input: unknown) => {
      const { id, page } = action(name);
      return browser.request(page, { method: "POST", headers: actionHeaders(id, server.url), body: JSON.stringify([input]) });
    };
    const signedIn = async (name: string, ip: string, extra: Record<string, string> = {}) => {
      const browser = new Browser(server.url, ip);
      const answer = await browser.signIn(email(name), PASSWORD, extra);
      expect(answer.status, answer.body).toBe(200);
      return browser;
    };
    const json = (body: unknown) => ({ method: "POST", headers: { "content-type": "application/json", origin: server.url }, body: JSON.stringify(body) });
    const expiresAt = () => new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

    beforeAll(async () => {
      server = await startConsole(kind, {
        users: [
          { email: email("pending"), password: PASSWORD, role: "staff" },
          { email: email("sweeper"), password: PASSWORD, role: "admin" },
          { email: email("enrolled"), password: PASSWORD, role: "admin" },
        ],
        env: { REQUIRE_TWO_FACTOR: "everyone" },
        seed: async (run) => {
          await run(`UPDATE users SET two_factor_secret = '${ENROLLED_SECRET}', two_factor_enabled_at = now() WHERE email = '${email("enrolled")}'`);
          await run(
            `INSERT INTO api_tokens (user_id, name, scope, expires_at, token_hash)
             SELECT id, 'made before', 'read', now() + interval '30 days', '${secretHash(EARLIER_TOKEN)}' FROM users WHERE email = '${email("pending")}'`,
          );
        },
      });
    });
    afterAll(async () => server?.close());

    it("refuses a pending session the API (403 two_factor_required), token creation, server actions and pages; an earlier token too", async () => {
      const pending = await signedIn("pending", "127.0.4.1");
      const list = await pending.request("/api/v1/subscribers");
      expect(list.status, list.body).toBe(403);
      expect(JSON.parse(list.body)).toMatchObject({ error: { code: "two_factor_required" } });

      const made = await pending.request("/api/v1/tokens", json({ name: "sneaky", scope: "export", expires_at: expiresAt() }));
      expect(made.status, made.body).toBe(403);
      expect(errorCode(made)).toBe("two_factor_required");
      const byAction = await call(pending, "createTokenAction", { name: "sneaky", scope: "export", expires_at: expiresAt() });
      expect(byAction.status, byAction.body.slice(0, 200)).toBe(403);
      expect(byAction.body).not.toMatch(/bsc_[A-Za-z0-9_-]{20,}/);

      const page = await pending.request("/subscribers");
      expect(page.status).toBe(307);
      expect(page.headers.location).toBe("/account/two-factor?required=1");

      const earlier = await rawRequest(server.url, "/api/v1/subscribers", { headers: { authorization: `Bearer ${EARLIER_TOKEN}` } });
      expect(earlier.status, earlier.body).toBe(403);
      expect(errorCode(earlier)).toBe("two_factor_required");

      // The set-up page itself, and an enrolled user, go on.
      const setUp = await pending.request("/account/two-factor?required=1");
      expect(setUp.status).toBe(200);
      expect(setUp.body).toContain("requires two-factor sign-in");
      const enrolled = await signedIn("enrolled", "127.0.4.2", { code: currentTotp(ENROLLED_SECRET) });
      expect((await enrolled.request("/api/v1/subscribers")).status).toBe(200);
      const token = await enrolled.request("/api/v1/tokens", json({ name: "fine", scope: "read", expires_at: expiresAt() }));
      expect(token.status, token.body).toBe(201);
      const { token: secret } = JSON.parse(token.body) as { token: string };
      expect((await rawRequest(server.url, "/api/v1/subscribers", { headers: { authorization: `Bearer ${secret}` } })).status).toBe(200);
    });

    it("lets a pending session reach no page, route or server action of the build but the set-up's and those open to anyone", async () => {
      const sweeper = await signedIn("sweeper", "127.0.4.3");
      // Pages: where anyone is sent to sign in, the pending session is sent to the set-up.
      const pages = appEntries().filter((e) => e.kind === "page");
      expect(pages.length).toBeGreaterThan(10);
      for (const { pattern } of pages) {
        const target = pattern.replace(/\[[^\]]+\]/g, "1");
        const anonymous = await rawRequest(server.url, target);
        const answer = await sweeper.request(target);
        if (target === "/account/two-factor") {
          expect(answer.status, target).toBe(200);
        } else if (anonymous.status === 307 && /^\/login\?callbackUrl=/.test(anonymous.headers.location ?? "")) {
          expect({ status: answer.status, location: answer.headers.location }, target).toEqual({ status: 307, location: "/account/two-factor?required=1" });
        } else {
          // Open to anyone (/login sends a signed-in visitor on, to a page that sends them to the set-up).
          expect(answer.status, target).toBeLessThan(500);
        }
      }

      // Route handlers: whatever anyone is refused (401), the pending session is refused with 403
      // two_factor_required; the rest answers it as it answers anyone.
      const routes = appEntries().filter((e) => e.kind === "route" && !e.pattern.startsWith("/api/auth/"));
      expect(routes.length).toBeGreaterThan(20);
      let refused = 0;
      for (const { file, pattern } of routes) {
        const target = pattern.replace(/\[\.\.\.[^\]]+\]/g, "x/y").replace(/\[[^\]]+\]/g, "1");
        for (const method of routeMethods(file)) {
          const init = method === "GET" || method === "HEAD" ? { method } : { method, headers: { "content-type": "application/json", origin: server.url }, body: "{}" };
          const anonymous = await rawRequest(server.url, target, init);
          const answer = await sweeper.request(target, init);
          const label = `${method} ${target}: ${answer.body.slice(0, 200)}`;
          if (anonymous.status === 401) {
            refused++;
            expect(answer.status, label).toBe(403);
            if (method !== "HEAD") expect(errorCode(answer), label).toBe("two_factor_required");
          } else {
            expect(answer.status, label).toBe(anonymous.status);
            // An administrator's health details are not for a pending session either.
            if (target === "/api/health" && method === "GET") expect(Object.keys(JSON.parse(answer.body) as object).sort()).toEqual(Object.keys(JSON.parse(anonymous.body) as object).sort());
          }
        }
      }
      expect(refused).toBeGreaterThan(30);

      // Server actions: every one but the set-up's (and those open to anyone) answers 403.
      const actions = builtServerActions().filter((a) => a.name !== "signOutAction");
      expect(actions.map((a) => a.name)).toEqual(expect.arrayContaining([...SET_UP_ACTIONS, "createUserAction", "createTokenAction", "changePasswordAction"]));
      const junk = { id: 1, name: "Pending action", role: "admin", active: false, email: "pending-made@required.test", scope: "export", expires_at: "2030-01-01" };
      for (const { id, name, page } of actions) {
        const answer = await sweeper.request(page, { method: "POST", headers: actionHeaders(id, server.url), body: JSON.stringify([junk]) });
        const label = `${name} on ${page}: ${answer.body.slice(0, 200)}`;
        if (SET_UP_ACTIONS.includes(name) || OPEN_ACTIONS.includes(name)) {
          // Reached, and refused for its input only.
          expect(answer.status, label).toBe(200);
          expect(answer.body, label).toContain('"ok":false');
        } else {
          expect(answer.status, label).toBe(403);
        }
      }
      // Still signed in, still pending: and signing out works.
      expect(JSON.parse((await sweeper.request("/api/auth/session")).body)).toMatchObject({ user: { email: email("sweeper") } });
      const out = await call(sweeper, "signOutAction", undefined);
      expect(out.headers["x-action-redirect"]).toMatch(/^\/login;/);
      expect(sweeper.sessionToken()).toBeUndefined();
    });

    it("answers everything again once the pending user has set up codes (an earlier token too)", async () => {
      const pending = await signedIn("pending", "127.0.4.4");
      const started = await call(pending, "startTwoFactorAction", { password: PASSWORD });
      const secret = /"secret":"([A-Z2-7]{32})"/.exec(started.body)?.[1];
      expect(secret, started.body.slice(0, 300)).toBeDefined();
      const confirmed = await call(pending, "confirmTwoFactorAction", { code: currentTotp(secret!) });
      expect(confirmed.body).toContain('"ok":true');
      expect((await pending.request("/api/v1/subscribers")).status).toBe(200);
      expect((await pending.request("/subscribers")).status).toBe(200);
      expect((await pending.request("/api/v1/tokens", json({ name: "now fine", scope: "read", expires_at: expiresAt() }))).status).toBe(201);
      expect((await rawRequest(server.url, "/api/v1/subscribers", { headers: { authorization: `Bearer ${EARLIER_TOKEN}` } })).status).toBe(200);
    });
  });
}
