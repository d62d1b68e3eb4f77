import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, rawRequest, startConsole, type ConsoleServer } from "../helpers/console-server";
import { testDbKinds } from "../helpers/db";

// API tokens against the production build over real HTTP: the curl lines of
// docs/people-and-tokens.md run as written with a token made by a signed-in user; bearer requests carry no cookie;
// a revoked token and a deactivated user stop at once; a token cannot manage tokens.

const PASSWORD = "tokens-http-password-1";
const ADMIN = { email: "admin@tokens.test", password: PASSWORD, role: "admin" as const };
const STAFF = { email: "staff@tokens.test", password: PASSWORD, role: "staff" as const };

/** The curl block of docs/people-and-tokens.md, as written. */
function documentedCommands(): string {
  const doc = fs.readFileSync("docs/people-and-tokens.md", "utf8");
  const block = /<!-- api-tokens:start -->\s*```sh\n([\s\S]*?)```\s*<!-- api-tokens:end -->/.exec(doc);
  if (!block) throw new Error("docs/people-and-tokens.md has no api-tokens block");
  return block[1]!;
}

for (const kind of testDbKinds()) {
  describe(`API tokens over HTTP on ${kind}`, () => {
    let server: ConsoleServer;
    let admin: Browser;
    let staff: Browser;
    const json = (body: unknown) => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

    beforeAll(async () => {
      server = await startConsole(kind, { users: [ADMIN, STAFF], env: { JOB_POLL_SECONDS: "1" } });
      admin = new Browser(server.url, "127.0.0.41");
      staff = new Browser(server.url, "127.0.0.42");
      expect((await admin.signIn(ADMIN.email, PASSWORD)).status).toBe(200);
      expect((await staff.signIn(STAFF.email, PASSWORD)).status).toBe(200);
      for (let i = 0; i < 3; i++) {
        const made = await admin.request(
          "/api/v1/subscribers",
          json({ first_name: `Tok${i}`, last_name: "Curl", email: `tok${i}@tokens.test`, mobile: `+4474005551${i}0`, subscription_status: "active", is_mandatory: false }),
        );
        expect(made.status, made.body).toBe(201);
      }
    });
    afterAll(async () => server?.close());

    const newToken = async (who: Browser, scope: "read" | "export") => {
      const expires_at = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
      const response = await who.request("/api/v1/tokens", json({ name: `${scope} script`, scope, expires_at }));
      expect(response.status, response.body).toBe(201);
      const body = JSON.parse(response.body) as { id: number; token: string; scope: string };
      expect(body.token).toMatch(/^bsc_/);
      return body;
    };

    it("runs the documented curl lines as written: list, request an export, poll it, download the file", async () => {
      const { token } = await newToken(staff, "export");
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "readme-curl-"));
      const script = documentedCommands().replace(/^BASE=.*$/m, `BASE=${server.url}`).replace(/^TOKEN=.*$/m, `TOKEN=${token}`);
      const run = spawnSync("bash", ["-euo", "pipefail", "-c", script], { cwd: dir, encoding: "utf8", timeout: 150_000 });
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(run.stdout).toContain('"pagination"');
      const csv = fs.readFileSync(path.join(dir, "subscribers.csv"), "utf8").replace(/^\uFEFF/, "").trim().split(/\r?\n/);
      expect(csv[0]).toMatch(/^id,first_name,last_name,/);
      expect(csv.slice(1).map((line) => line.split(",")[1]).sort()).toEqual(["Tok0", "Tok1", "Tok2"]);
      fs.rmSync(dir, { recursive: true, force: true });
      // The export through the token is in the audit log, with the token's name.
      const audit = await admin.request("/audit?action=token.export");
      expect(audit.body).toContain("export script");
    });

    it("keeps a read token away from the export, and any token away from tokens and other users' roles", async () => {
      const { token } = await newToken(staff, "read");
      const as = (target: string, method = "GET") => rawRequest(server.url, target, { method, headers: { authorization: `Bearer ${token}` } });
      expect((await as("/api/v1/subscribers")).status).toBe(200);
      expect((await as("/api/v1/subscribers/export")).status).toBe(403);
      expect((await as("/api/v1/subscribers/export", "POST")).status).toBe(403);
      expect((await as("/api/v1/tokens")).status).toBe(403);
      expect((await as("/api/v1/users")).status).toBe(403); // the user is staff
      // A page with a token and no session is anonymous: tokens are for the JSON API.
      const page = await as("/subscribers");
      expect(page.status).toBe(307);
      expect(page.headers.location).toContain("/login");
      // No cookie is set on a bearer answer.
      expect((await as("/api/v1/subscribers")).setCookies).toEqual([]);
    });

    it("lets a bearer request past the Origin check (it carries no cookie), never a cookie's", async () => {
      const { token } = await newToken(admin, "export");
      const evil = { origin: "http://evil.example" };
      const byToken = await rawRequest(server.url, "/api/v1/subscribers/export", { method: "POST", headers: { authorization: `Bearer ${token}`, ...evil } });
      expect(byToken.status, byToken.body).toBe(202);
      expect(JSON.parse(byToken.body).downloadable_file_status).toBe("in_queue");
      const byCookie = await admin.request("/api/v1/subscribers/export", { method: "POST", headers: evil });
      expect(byCookie.status, byCookie.body).toBe(403);
      expect(JSON.parse(byCookie.body).error.code).toBe("cross_site_request");
    });

    it("reads only the Bearer scheme as a token: with Basic (a proxy's password prompt) the session cookie decides", async () => {
      const basic = { authorization: "Basic YWRtaW46cHJveHktcGFzc3dvcmQ=" };
      const list = await admin.request("/api/v1/users", { headers: basic });
      expect(list.status, list.body).toBe(200);
      const made = await admin.request("/api/v1/branches", { ...json({ name: "Behind auth_basic" }), headers: { "content-type": "application/json", ...basic } });
      expect(made.status, made.body).toBe(201);
      // The cookie decides, so the Origin check is back.
      const crossSite = await admin.request("/api/v1/branches", { ...json({ name: "Cross-site" }), headers: { "content-type": "application/json", origin: "http://evil.example", ...basic } });
      expect(crossSite.status).toBe(403);
      // No cookie: anonymous, the ordinary 401, not a token's.
      const anonymous = await rawRequest(server.url, "/api/v1/users", { headers: basic });
      expect(anonymous.status).toBe(401);
      expect(JSON.parse(anonymous.body).error.code).toBe("unauthorized");
      expect(anonymous.headers["www-authenticate"]).toBeUndefined();
      // A Bearer header that is not one token: the token's 401 whatever the cookie, one answer for all.
      const bodies = new Set<string>();
      for (const malformed of ["Bearer", "Bearer a b", "bearer  !", `Bearer bsc_${"A".repeat(43)}`]) {
        const answer = await admin.request("/api/v1/users", { headers: { authorization: malformed } });
        expect(answer.status, malformed).toBe(401);
        expect(answer.headers["www-authenticate"]).toBe('Bearer realm="console"');
        // One answer for all: the same body but for the request's own id.
        const { error } = JSON.parse(answer.body) as { error: { request_id?: string } };
        expect(error.request_id).toBe(answer.headers["x-request-id"]);
        delete error.request_id;
        bodies.add(JSON.stringify(error));
      }
      expect(bodies.size).toBe(1);
    });

    it("answers a revoked token 401 at once, and ends a deactivated user's session and tokens on their next request", async () => {
      const { token, id } = await newToken(staff, "read");
      const as = () => rawRequest(server.url, "/api/v1/branches", { headers: { authorization: `Bearer ${token}` } });
      expect((await as()).status).toBe(200);
      expect((await staff.request(`/api/v1/tokens/${id}`, { method: "DELETE" })).status).toBe(204);
      const revoked = await as();
      expect(revoked.status).toBe(401);
      expect(JSON.parse(revoked.body).error.code).toBe("invalid_token");
      expect(revoked.headers["www-authenticate"]).toBe('Bearer realm="console"');

      const second = await newToken(staff, "read");
      const usersList = JSON.parse((await admin.request(`/api/v1/users?email=${encodeURIComponent(STAFF.email)}`)).body) as { data: { id: number }[] };
      const staffId = usersList.data[0]!.id;
      expect((await staff.request("/api/v1/branches")).status).toBe(200);
      const off = await admin.request(`/api/v1/users/${staffId}`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ active: false }) });
      expect(off.status, off.body).toBe(200);
      expect((await staff.request("/api/v1/branches")).status).toBe(401);
      expect((await rawRequest(server.url, "/api/v1/branches", { headers: { authorization: `Bearer ${second.token}` } })).status).toBe(401);
      expect(JSON.parse((await staff.request("/api/auth/session")).body)).toEqual({});
      // Reactivated: the old cookie and token stay dead.
      const on = await admin.request(`/api/v1/users/${staffId}`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ active: true }) });
      expect(on.status).toBe(200);
      expect((await rawRequest(server.url, "/api/v1/branches", { headers: { authorization: `Bearer ${second.token}` } })).status).toBe(401);
      // The admin cannot deactivate themself, over HTTP too.
      const me = JSON.parse((await admin.request(`/api/v1/users?email=${encodeURIComponent(ADMIN.email)}`)).body) as { data: { id: number }[] };
      const self = await admin.request(`/api/v1/users/${me.data[0]!.id}`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ active: false }) });
      expect(self.status).toBe(409);
    });
  });
}
