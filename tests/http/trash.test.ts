import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, startConsole, type ConsoleServer } from "../helpers/console-server";
import { testDbKinds } from "../helpers/db";
import { seedSubscribers } from "../helpers/export-data";

// The trash and bulk changes through the API against the production build over real HTTP, with
// real sessions: delete, find it in the trash, restore it; a branch's name taken meanwhile is a
// 409; a bulk change by the API and its undo; staff never see the trash (403 page and API).

const PASSWORD = "trash-http-password-1";
const STAFF = { email: "staff@trash.test", password: PASSWORD, role: "staff" as const, name: "Sam Staff" };
const ADMIN = { email: "admin@trash.test", password: PASSWORD, role: "admin" as const, name: "Ada Admin" };

type Json = Record<string, unknown> & { data?: Record<string, unknown>[]; pagination?: { total: number }; error?: { code: string; message: string } };

for (const kind of testDbKinds()) {
  describe(`the trash over HTTP on ${kind}`, () => {
    let server: ConsoleServer;
    let staff: Browser;
    let admin: Browser;
    const send = async (who: Browser, method: string, path: string, body?: unknown) => {
      const headers: Record<string, string> = body === undefined ? { origin: server.url } : { "content-type": "application/json", origin: server.url };
      const init = body === undefined ? { method, headers } : { method, headers, body: JSON.stringify(body) };
      const response = await who.request(path, init);
      return { status: response.status, body: response.body ? (JSON.parse(response.body) as Json) : ({} as Json) };
    };

    beforeAll(async () => {
      server = await startConsole(kind, { users: [STAFF, ADMIN], seed: (run) => seedSubscribers(run, 30) });
      staff = new Browser(server.url, "127.0.0.61");
      admin = new Browser(server.url, "127.0.0.62");
      for (const [who, user] of [[staff, STAFF], [admin, ADMIN]] as const) expect((await who.signIn(user.email, PASSWORD)).status).toBe(200);
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
      expect(made.status).toBe(201);
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
  });
}
