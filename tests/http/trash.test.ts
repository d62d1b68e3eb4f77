import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, rawRequest, startConsole, type ConsoleServer } from "../helpers/console-server";
import { testDbKinds } from "../helpers/db";
import { seedSubscribers } from "../helpers/export-data";

// The trash and bulk changes through the API against the production build over real HTTP, with
// real sessions: delete, find it in the trash, restore it; a branch's name taken meanwhile is a
// 409; a bulk change by the API and its undo; staff never see the trash (403 page and API).

const PASSWORD = "trash-http-password-1";
const STAFF = { email: "staff@trash.test", password: PASSWORD, role: "staff" as const, name: "Sam Staff" };
const ADMIN = { email: "admin@trash.test", password: PASSWORD, role: "admin" as const, name: "Ada Admin" };
const SCOPED = { email: "scoped@trash.test", password: PASSWORD, role: "staff" as const, name: "Sol Scoped" };

type Json = Record<string, unknown> & { data?: Record<string, unknown>[]; pagination?: { total: number }; error?: { code: string; message: string } };

for (const kind of testDbKinds()) {
  describe(`the trash over HTTP on ${kind}`, () => {
    let server: ConsoleServer;
    let staff: Browser;
    let admin: Browser;
    let scoped: Browser;
    const send = async (who: Browser, method: string, path: string, body?: unknown) => {
      const headers: Record<string, string> = body === undefined ? { origin: server.url } : { "content-type": "application/json", origin: server.url };
      const init = body === undefined ? { method, headers } : { method, headers, body: JSON.stringify(body) };
      const response = await who.request(path, init);
      return { status: response.status, body: response.body ? (JSON.parse(response.body) as Json) : ({} as Json) };
    };

    beforeAll(async () => {
      server = await startConsole(kind, { users: [STAFF, ADMIN, SCOPED], seed: (run) => seedSubscribers(run, 30) });
      staff = new Browser(server.url, "127.0.0.61");
      admin = new Browser(server.url, "127.0.0.62");
      scoped = new Browser(server.url, "127.0.0.63");
      for (const [who, user] of [[staff, STAFF], [admin, ADMIN], [scoped, SCOPED]] as const) expect((await who.signIn(user.email, PASSWORD)).status).toBe(200);
    });
    afterAll(async () => server?.close());

    it("a deleted subscriber: 404 to GET, listed in the trash, restored by POST …/restore", async () => {
      const before = (await send(admin, "GET", "/api/v1/subscribers")).body.pagination!.total;
      expect((await send(admin, "DELETE", "/api/v1/subscribers/5")).status).toBe(204);
      expect((await send(admin, "GET", "/api/v1/subscribers/5")).status).toBe(404);
      expect((await send(admin, "GET", "/api/v1/subscribers")).body.pagination!.total).toBe(before - 1);
      const trash = await send(admin, "GET", "/api/v1/trash/subscribers");
      expect(trash.status).toBe(200);
      expect(trash.body.data![0]).toMatchObject({ id: 5, deleted_by: { name: ADMIN.name }, merged_into: null });
      expect((await send(staff, "GET", "/api/v1/trash/subscribers")).status).toBe(403);
      expect((await staff.request("/trash")).status).toBe(403);
      const page = await admin.request("/trash");
      expect(page.status).toBe(200);
      expect(page.body).toContain("user5@example.com");
      const restored = await send(admin, "POST", "/api/v1/trash/subscribers/5/restore");
      expect(restored).toMatchObject({ status: 200, body: { id: 5, email: "user5@example.com" } });
      expect((await send(admin, "GET", "/api/v1/subscribers/5")).status).toBe(200);
      expect((await send(admin, "DELETE", "/api/v1/trash/subscribers/5")).status).toBe(404);
    });

    it("a trashed branch's name is free; restoring it is then a 409 naming the branch; erasing is 204", async () => {
      const made = await send(admin, "POST", "/api/v1/branches", { name: "Quayside" });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const id = made.body.id as number;
      expect((await send(admin, "DELETE", `/api/v1/branches/${id}`)).status).toBe(204);
      expect((await send(admin, "GET", "/api/v1/trash/branches?name=Quay")).body.data).toEqual([expect.objectContaining({ id, name: "Quayside" })]);
      const again = await send(admin, "POST", "/api/v1/branches", { name: "QUAYSIDE" });
      expect(again.status).toBe(201);
      const refused = await send(admin, "POST", `/api/v1/trash/branches/${id}/restore`);
      expect(refused.status).toBe(409);
      expect(refused.body.error!.message).toContain(`“QUAYSIDE” now (id ${again.body.id as number})`);
      expect((await send(staff, "DELETE", `/api/v1/trash/branches/${id}`)).status).toBe(403);
      expect((await send(admin, "DELETE", `/api/v1/trash/branches/${id}`)).status).toBe(204);
      expect((await send(admin, "GET", "/api/v1/trash/branches?name=Quay")).body.pagination!.total).toBe(0);
    });

    it("names a branch in the trash nowhere to a staff member scoped to it: not in the header, the branch list or their user record", async () => {
      const live = (await send(admin, "POST", "/api/v1/branches", { name: "Harbourside" })).body.id as number;
      const trashed = (await send(admin, "POST", "/api/v1/branches", { name: "Moorgate" })).body.id as number;
      const scopedUser = async () => (await send(admin, "GET", `/api/v1/users?email=${encodeURIComponent(SCOPED.email)}`)).body.data![0]!;
      const scopedId = (await scopedUser()).id as number;
      expect((await send(admin, "PATCH", `/api/v1/users/${scopedId}`, { branch_ids: [live, trashed] })).status).toBe(200);
      // Both named while both are live.
      expect((await scoped.request("/subscribers")).body).toMatch(/Your branches: (<!-- -->)?<bdi>Harbourside, Moorgate<\/bdi>/);
      expect((await send(admin, "DELETE", `/api/v1/branches/${trashed}`)).status).toBe(204);
      for (const path of ["/subscribers", "/subscribers/new", "/branches", "/account"]) {
        const page = await scoped.request(path);
        expect(page.status, path).toBe(200);
        expect(page.body, path).toMatch(/Your branches: (<!-- -->)?<bdi>Harbourside<\/bdi>/);
        expect(page.body, path).not.toContain("Moorgate");
      }
      for (const path of ["/api/v1/branches", "/api/v1/subscribers", "/api/auth/session"]) {
        const answer = await scoped.request(path);
        expect(answer.status, path).toBe(200);
        expect(answer.body, path).not.toContain("Moorgate");
      }
      expect(await scopedUser()).toMatchObject({ branch_ids: [live] });
      expect((await send(admin, "PATCH", `/api/v1/users/${scopedId}`, { branch_ids: null })).status).toBe(200);
    });

    it("a bulk change through the API (200 at once), read back, undone once (409 after); a deletion is for administrators", async () => {
      const ids = [1, 2, 3];
      const done = await send(staff, "POST", "/api/v1/subscribers/bulk", { ids, change: { is_mandatory: true } });
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({ status: "completed", undo_of: null, undone_by: null });
      expect((await send(staff, "GET", `/api/v1/subscribers/bulk/${done.body.id as string}`)).status).toBe(200);
      expect((await send(staff, "POST", "/api/v1/subscribers/bulk", { ids, change: { delete: true } })).status).toBe(403);
      expect((await send(staff, "POST", "/api/v1/subscribers/bulk", { ids, filters: {}, change: { is_mandatory: false } })).status).toBe(400);
      const undone = await send(staff, "POST", `/api/v1/subscribers/bulk/${done.body.id as string}/undo`);
      expect(undone).toMatchObject({ status: 200, body: { status: "completed", undo_of: done.body.id } });
      expect((await send(staff, "POST", `/api/v1/subscribers/bulk/${done.body.id as string}/undo`)).status).toBe(409);
      const original = await send(admin, "GET", `/api/v1/subscribers/bulk/${done.body.id as string}`);
      expect(original.body).toMatchObject({ undone_by: { name: STAFF.name } });
      // The bulk change's page: who undid it and when.
      const page = await staff.request(`/subscribers/bulk/${done.body.id as string}`);
      expect(page.status).toBe(200);
      expect(page.body).toMatch(/Undone by <bdi>Sam Staff<\/bdi>/);
      const deletion = await send(admin, "POST", "/api/v1/subscribers/bulk", { filters: { id: "7" }, change: { delete: true } });
      expect(deletion).toMatchObject({ status: 200, body: { changed_rows: 1 } });
      expect((await admin.request(`/subscribers/bulk/${deletion.body.id as string}`)).body).toContain(">Undo</button>");
      expect((await send(admin, "POST", `/api/v1/subscribers/bulk/${deletion.body.id as string}/undo`)).status).toBe(200);
      expect((await send(admin, "GET", "/api/v1/subscribers/7")).status).toBe(200);
    });

    it("refuses the administrators' actions on real records to staff, a scoped staff member and API tokens, and changes nothing", async () => {
      const home = (await send(admin, "POST", "/api/v1/branches", { name: "Refusals home" })).body.id as number;
      const gone = (await send(admin, "POST", "/api/v1/branches", { name: "Refusals gone" })).body.id as number;
      expect((await send(admin, "DELETE", `/api/v1/branches/${gone}`)).status).toBe(204);
      const scopedId = (await send(admin, "GET", `/api/v1/users?email=${encodeURIComponent(SCOPED.email)}`)).body.data![0]!.id as number;
      expect((await send(admin, "PATCH", `/api/v1/users/${scopedId}`, { branch_ids: [home] })).status).toBe(200);
      // Every record in the scoped member's branch: what refuses them is their role, not their scope.
      const make = async (email: string, mobile: string) => {
        const made = await send(admin, "POST", "/api/v1/subscribers", { first_name: "Rhea", last_name: "Refusal", email, mobile, branch_id: home, subscription_status: "active", is_mandatory: false });
        expect(made.status, JSON.stringify(made.body)).toBe(201);
        return made.body.id as number;
      };
      const [p, q, u, v, r, t] = [
        await make("pair@refusals.test", "+447911123501"), await make("PAIR@refusals.test", "+447911123502"),
        await make("u@refusals.test", "+447911123505"), await make("v@refusals.test", "+447911123505"),
        await make("r@refusals.test", "+447911123503"), await make("t@refusals.test", "+447911123504"),
      ] as [number, number, number, number, number, number];
      const version = async (id: number) => (await send(admin, "GET", `/api/v1/subscribers/${id}`)).body.updated_at as string;
      expect((await send(admin, "POST", "/api/v1/subscribers/duplicates/dismiss", { ids: [p, q] })).status).toBe(200);
      const merge = await send(admin, "POST", "/api/v1/subscribers/merge", { survivor_id: u, merged_ids: [v], updated_at: { [u]: await version(u), [v]: await version(v) } });
      expect(merge.status).toBe(200);
      const deletion = await send(admin, "POST", "/api/v1/subscribers/bulk", { ids: [r], change: { delete: true } });
      expect(deletion.status).toBe(200);
      expect((await send(admin, "DELETE", `/api/v1/subscribers/${t}`)).status).toBe(204);
      const tokenOf = async (who: Browser) => (await send(who, "POST", "/api/v1/tokens", { name: "refusals", scope: "read", expires_at: new Date(Date.now() + 86_400_000).toISOString() })).body.token as string;
      const [staffToken, adminToken] = [await tokenOf(staff), await tokenOf(admin)];
      const state = async () => ({
        trashed: (await send(admin, "GET", "/api/v1/trash/subscribers?sort=id")).body.data!.map((row) => row.id),
        branches: (await send(admin, "GET", "/api/v1/trash/branches?name=Refusals")).body.pagination!.total,
        deletion: (await send(admin, "GET", `/api/v1/subscribers/bulk/${deletion.body.id as string}`)).body.undo_id,
        records: await Promise.all([p, q, u].map(async (id) => (await send(admin, "GET", `/api/v1/subscribers/${id}`)).body)),
      });
      const before = await state();
      expect(before.trashed).toEqual(expect.arrayContaining([r, t, v]));

      const mergeBody = { survivor_id: p, merged_ids: [q], updated_at: { [p]: await version(p), [q]: await version(q) } };
      const refusals: [method: string, path: string, body?: unknown][] = [
        ["GET", "/api/v1/trash/subscribers"],
        ["GET", "/api/v1/trash/branches"],
        ["POST", `/api/v1/trash/subscribers/${t}/restore`],
        ["DELETE", `/api/v1/trash/subscribers/${t}`],
        ["POST", `/api/v1/trash/branches/${gone}/restore`],
        ["DELETE", `/api/v1/trash/branches/${gone}`],
        ["POST", `/api/v1/subscribers/bulk/${deletion.body.id as string}/undo`],
        ["POST", `/api/v1/subscribers/merges/${merge.body.merge_id as string}/undo`],
        ["POST", "/api/v1/subscribers/duplicates/dismiss/undo", { ids: [p, q] }],
        ["POST", "/api/v1/subscribers/merge", mergeBody],
        ["POST", "/api/v1/subscribers/bulk", { ids: [p], change: { delete: true } }],
        ["DELETE", `/api/v1/subscribers/${p}`],
      ];
      const byToken = (token: string, method: string, path: string, body?: unknown) =>
        rawRequest(server.url, path, { method, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) }, body: body === undefined ? undefined : JSON.stringify(body) });
      for (const [method, path, body] of refusals) {
        const answers = {
          staff: await staff.request(path, { method, headers: { origin: server.url, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) }),
          scoped: await scoped.request(path, { method, headers: { origin: server.url, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) }),
          "staff token": await byToken(staffToken, method, path, body),
          "admin token": await byToken(adminToken, method, path, body),
        };
        for (const [who, answer] of Object.entries(answers)) {
          const what = `${who}: ${method} ${path} answered ${answer.status} ${answer.body.slice(0, 200)}`;
          // An admin's token reads the trash lists (scope read); it never changes anything.
          if (who === "admin token" && method === "GET") {
            expect(answer.status, what).toBe(200);
            continue;
          }
          // Someone else's bulk change is as unknown to staff as to anyone but its author (404).
          expect(path.endsWith("/undo") && path.includes("/bulk/") && !who.includes("token") ? [403, 404] : [403], what).toContain(answer.status);
          const error = (JSON.parse(answer.body) as { error: { code: string; message: string } }).error;
          expect(error.code, what).toMatch(/^(forbidden|token_scope|not_found)$/);
          expect(error.message, what).toBeTruthy();
        }
      }
      expect(await state()).toEqual(before);
      // The same actions are an administrator's to take.
      expect((await send(admin, "POST", `/api/v1/subscribers/merges/${merge.body.merge_id as string}/undo`)).status).toBe(200);
      expect((await send(admin, "POST", `/api/v1/trash/subscribers/${t}/restore`)).status).toBe(200);
    });
  });
}
