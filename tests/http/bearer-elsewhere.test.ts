import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appEntries, builtServerActions } from "../helpers/built-app";
import { Browser, rawRequest, startConsole, type ConsoleServer, type RawResponse } from "../helpers/console-server";
import { testDbKinds } from "../helpers/db";

// API tokens work on the JSON API only (docs/API.md "API tokens"): a request that carries a valid
// `Authorization: Bearer …` and no cookie is anonymous everywhere else. The authorization matrix
// (tests/integration/authorization-matrix.test.ts) says so of every page and server action with
// the token in the request's headers; this is the production build saying the same over HTTP:
// every server action of the build answers 401 (the two open to anyone answer as to anyone) and
// changes nothing, every page answers as to an anonymous visitor, and the one form route outside
// /api/v1 refuses the token.

const PASSWORD = "bearer-elsewhere-pass-1";
const ADMIN = { email: "admin@bearer.test", password: PASSWORD, role: "admin" as const };
const STAFF = { email: "staff@bearer.test", password: PASSWORD, role: "staff" as const };

/** Actions open to anyone, and what a caller with no session gets from them (the matrix's "ok" and "redirect"). */
const OPEN: Record<string, (answer: RawResponse) => void> = {
  // The link's secret is the credential: an unknown one is refused in the answer, nothing is set.
  setPasswordAction: (answer) => {
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('"ok":false');
  },
  // With no session there is nothing to end: to /login.
  signOutAction: (answer) => {
    expect(answer.status).toBe(200);
    expect(answer.headers["x-action-redirect"]).toMatch(/^\/login;/);
  },
};

for (const kind of testDbKinds()) {
  describe(`bearer tokens outside the JSON API on ${kind}`, () => {
    let server: ConsoleServer;
    let admin: Browser;
    const tokens: Record<"read" | "export", string> = { read: "", export: "" };

    const json = (body: unknown) => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

    /** Everything an action could change, as the admin reads it (and, on PostgreSQL, every row of the tables). */
    async function snapshot() {
      const reads = await Promise.all(
        ["/api/v1/users?sort=id", "/api/v1/branches?sort=id", "/api/v1/subscribers?sort=id", "/api/v1/tokens", "/api/v1/subscribers/export", "/api/v1/subscribers/imports"].map(
          async (path) => {
            const answer = await admin.request(path);
            expect(answer.status, path).toBe(200);
            return JSON.parse(answer.body) as unknown;
          },
        ),
      );
      const tables = server.sql
        ? await server.sql(
            `SELECT (SELECT md5(string_agg(u::text, '|' ORDER BY u.id)) FROM users u) AS users,
                    (SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t.id), '')) FROM api_tokens t) AS tokens,
                    (SELECT md5(coalesce(string_agg(l::text, '|' ORDER BY l.id), '')) FROM password_links l) AS links,
                    (SELECT md5(coalesce(string_agg(b::text, '|' ORDER BY b.id), '')) FROM branches b) AS branches,
                    (SELECT md5(coalesce(string_agg(s::text, '|' ORDER BY s.id), '')) FROM subscribers s) AS subscribers,
                    (SELECT count(*)::int FROM audit_events) AS audit_events`,
          )
        : null;
      return { reads, tables };
    }

    beforeAll(async () => {
      server = await startConsole(kind, { users: [ADMIN, STAFF] });
      admin = new Browser(server.url, "127.0.0.51");
      expect((await admin.signIn(ADMIN.email, PASSWORD)).status).toBe(200);
      expect((await admin.request("/api/v1/branches", json({ name: "Bearer branch" }))).status).toBe(201);
      const subscriber = await admin.request(
        "/api/v1/subscribers",
        json({ first_name: "Bea", last_name: "Rer", email: "bea@bearer.test", mobile: "+447400555900", subscription_status: "active", is_mandatory: false }),
      );
      expect(subscriber.status, subscriber.body).toBe(201);
      // The admin's own tokens: were a token to count anywhere but /api/v1, it would count as an admin.
      for (const scope of ["read", "export"] as const) {
        const expires_at = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
        const made = await admin.request("/api/v1/tokens", json({ name: `${scope} elsewhere`, scope, expires_at }));
        expect(made.status, made.body).toBe(201);
        tokens[scope] = (JSON.parse(made.body) as { token: string }).token;
        expect((await rawRequest(server.url, "/api/v1/subscribers", { headers: bearer(tokens[scope]) })).status).toBe(200);
      }
    });
    afterAll(async () => server?.close());

    it("answers every server action of the build 401 to a bearer token with no cookie, and changes nothing", async () => {
      const actions = builtServerActions();
      expect(actions.map((a) => a.name)).toEqual(expect.arrayContaining(["createUserAction", "changeRoleAction", "createTokenAction", "requestExportAction", "deleteBranchAction"]));
      const before = await snapshot();
      for (const { id, name, page } of actions) {
        for (const scope of ["read", "export"] as const) {
          const answer = await rawRequest(server.url, page, {
            method: "POST",
            headers: { ...bearer(tokens[scope]), "next-action": id, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component", origin: server.url },
            body: JSON.stringify([{ id: 1, name: "Bearer action", role: "admin", active: false, email: "bearer-made@bearer.test", scope: "export", expires_at: "2030-01-01" }]),
          });
          const open = OPEN[name];
          if (open) open(answer);
          else expect(answer.status, `${name} (${scope} token) on ${page}: ${answer.body.slice(0, 200)}`).toBe(401);
          expect(answer.setCookies.filter((c) => /session-token=[^;]/.test(c)), name).toEqual([]);
        }
      }
      expect(await snapshot()).toEqual(before);
    });

    it("answers every page to a bearer token with no cookie as to an anonymous visitor", async () => {
      const pages = appEntries().filter((e) => e.kind === "page");
      expect(pages.length).toBeGreaterThan(10);
      for (const { pattern } of pages) {
        const path = pattern.replace(/\[[^\]]+\]/g, "1");
        const anonymous = await rawRequest(server.url, path);
        for (const scope of ["read", "export"] as const) {
          const answer = await rawRequest(server.url, path, { headers: bearer(tokens[scope]) });
          expect({ status: answer.status, location: answer.headers.location }, `${path} (${scope} token)`).toEqual({ status: anonymous.status, location: anonymous.headers.location });
        }
        // /api/docs shows the OpenAPI document, which needs no session either.
        if (!["/login", "/login/refused", "/set-password/1", "/", "/api/docs"].includes(path)) {
          expect(anonymous.status, path).toBe(307);
          expect(anonymous.headers.location, path).toMatch(/^\/login\?callbackUrl=/);
        }
      }
    });

    it("refuses a bearer token on the column chooser's form route (outside /api/v1) with a 403", async () => {
      for (const scope of ["read", "export"] as const) {
        const answer = await rawRequest(server.url, "/subscribers/table-settings", {
          method: "POST",
          headers: { ...bearer(tokens[scope]), "content-type": "application/x-www-form-urlencoded" },
          body: "show=id&show=email&density=compact",
        });
        expect(answer.status, answer.body).toBe(403);
        expect(JSON.parse(answer.body).error.code).toBe("token_scope");
      }
      // The same form with the session: 303 back to the list.
      const withCookie = await admin.request("/subscribers/table-settings", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "show=id&show=email&density=compact" });
      expect(withCookie.status).toBe(303);
    });
  });
}
