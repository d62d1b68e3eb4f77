import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET } from "@/app/api/v1/subscribers/duplicates/route";
import { POST as dismissPOST } from "@/app/api/v1/subscribers/duplicates/dismiss/route";
import { POST as undoPOST } from "@/app/api/v1/subscribers/duplicates/dismiss/undo/route";
import type { SessionUser } from "@/lib/auth/permissions";
import { branchScope } from "@/lib/auth/scope";
import type { Database } from "@/lib/db/client";
import { countDuplicateGroups } from "@/lib/subscribers/duplicate-groups";
import { createSubscriber } from "@/lib/subscribers/mutations";
import { subscriberInputSchema } from "@/lib/subscribers/schema";
import { syncCountries } from "@/tools/seed/demo";
import { actAs, createUsers, testDatabase, testDbKinds } from "../helpers/db";
import { apiRequest } from "../helpers/http";

const EVERY = branchScope({ role: "admin", branch_ids: null });

// The duplicates review through its API handlers: groups sharing an email or a mobile, newest
// first, members newest first, the `rule` and `q` filters, 10 groups a page, dismissed pairs left
// out, a scoped user's groups made of their branches' members only, and bad input refused.

type Group = { key: string; rule: string; subscribers: { id: number; email: string; updated_at: string }[] };
type Answer = { data: Group[]; pagination: { total: number; length: number; page: number; per_page: number }; error?: { code: string } };

for (const kind of testDbKinds()) {
  describe(`duplicates review on ${kind}`, () => {
    let database: Database;
    let users: { admin: SessionUser; staff: SessionUser };
    let scoped: SessionUser;
    let home = 0;
    let away = 0;
    let n = 0;
    const make = (email: string, mobile: string, branch_id: number | null = null) =>
      createSubscriber(EVERY, subscriberInputSchema.parse({ first_name: "Rev", last_name: `Iew ${(n += 1)}`, email, mobile, branch_id, subscription_status: "active", is_mandatory: false }), users.admin);
    const list = async (query = "", as: SessionUser = users.staff) => {
      actAs(as);
      const response = await GET(apiRequest(`/api/v1/subscribers/duplicates${query}`), {});
      return { status: response.status, body: (await response.json()) as Answer };
    };
    const post = async (handler: typeof dismissPOST, json: unknown, as: SessionUser = users.staff) => {
      actAs(as);
      const response = await handler(apiRequest("/api/v1/subscribers/duplicates/dismiss", { method: "POST", json }), {});
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };

    beforeAll(async () => {
      database = await testDatabase(kind);
      await syncCountries(database.prisma);
      users = await createUsers(database);
      home = (await database.prisma.branch.create({ data: { name: "Review home" } })).id;
      away = (await database.prisma.branch.create({ data: { name: "Review away" } })).id;
      const row = await database.prisma.user.create({
        data: { email: `scoped-${Date.now()}@test.local`, name: "Scoped Reviewer", role: "staff", password_hash: "x", branch_scoped: true, branches: { create: [{ branch_id: home }] } },
        select: { id: true, email: true, name: true, role: true },
      });
      scoped = { ...row, branch_ids: [home] } as SessionUser;
    });
    beforeEach(async () => {
      await database.prisma.$executeRawUnsafe(`DELETE FROM subscribers`);
    });
    afterAll(async () => {
      actAs(null);
      await database?.close();
    });

    it("shows groups sharing an email or a mobile, the newest group and member first, and filters them", async () => {
      const a = await make("ann@review.test", "+447400500001");
      const b = await make("ANN@review.test", "+447400500002");
      const c = await make("carl@review.test", "+447400500003");
      const d = await make("dora@review.test", "+447400500003");
      await make("solo@review.test", "+447400500009");
      const { status, body } = await list();
      expect(status).toBe(200);
      expect(body.pagination).toEqual({ total: 2, length: 1, page: 1, per_page: 10 });
      expect(body.data.map((g) => [g.rule, g.key, g.subscribers.map((s) => s.id)])).toEqual([
        ["mobile", "+447400500003", [d.id, c.id]],
        ["email", "ann@review.test", [b.id, a.id]],
      ]);
      expect(body.data[1]!.subscribers[0]).toMatchObject({ email: "ANN@review.test", is_duplicate: true, updated_at: expect.any(String) });
      expect((await list("?rule=email")).body.data.map((g) => g.key)).toEqual(["ann@review.test"]);
      expect((await list("?q=dora")).body.data.map((g) => g.key)).toEqual(["+447400500003"]);
      expect((await list("?q=nobody")).body).toMatchObject({ data: [], pagination: { total: 0, length: 0 } });
      expect(await countDuplicateGroups(EVERY)).toBe(2);
    });

    it("pages 10 groups at a time, with the true total past the last page", async () => {
      for (let i = 0; i < 12; i++) {
        await make(`page${i}@review.test`, `+4474005100${String(i).padStart(2, "0")}`);
        await make(`Page${i}@review.test`, `+4474005200${String(i).padStart(2, "0")}`);
      }
      const first = await list();
      expect(first.body.data).toHaveLength(10);
      expect(first.body.pagination).toEqual({ total: 12, length: 2, page: 1, per_page: 10 });
      expect((await list("?page=2")).body.data.map((g) => g.key)).toEqual(["page1@review.test", "page0@review.test"]);
      expect((await list("?page=3")).body).toEqual({ data: [], pagination: { total: 12, length: 2, page: 3, per_page: 10 } });
    });

    it("leaves dismissed pairs out: a group all dismissed disappears, its members are no longer flagged", async () => {
      const a = await make("eve@review.test", "+447400530001");
      const b = await make("eve@REVIEW.test", "+447400530002");
      const c = await make("Eve@review.test", "+447400530003");
      const one = await post(dismissPOST, { ids: [a.id, b.id] });
      expect(one.status).toBe(200);
      expect(one.body).toEqual({ ids: [a.id, b.id], pairs: [[a.id, b.id]], decided_again: [b.id] });
      // c still matches both: the group stays, with all three.
      expect((await list()).body.data.map((g) => g.subscribers.map((s) => s.id))).toEqual([[c.id, b.id, a.id]]);
      expect((await post(dismissPOST, { ids: [a.id, b.id, c.id] })).body).toMatchObject({ pairs: [[a.id, c.id], [b.id, c.id]], decided_again: [c.id] });
      expect((await list()).body).toMatchObject({ data: [], pagination: { total: 0 } });
      // Staff cannot take it back; an administrator can.
      expect((await post(undoPOST, { ids: [a.id, c.id] })).status).toBe(403);
      expect((await post(undoPOST, { ids: [a.id, c.id] }, users.admin)).body).toEqual({ ids: [a.id, c.id], pairs: [[a.id, c.id]], decided_again: [c.id] });
      expect((await list()).body.data.map((g) => g.subscribers.map((s) => s.id))).toEqual([[c.id, a.id]]);
    });

    it("shows a scoped user the members in their branches, and no group with fewer than two of them", async () => {
      const a = await make("fay@review.test", "+447400540001", home);
      const b = await make("FAY@review.test", "+447400540002", home);
      await make("fay@review.test", "+447400540003", away);
      await make("gus@review.test", "+447400540004", home);
      await make("gus@review.test", "+447400540005", away);
      const mine = await list("", scoped);
      expect(mine.body.data.map((g) => [g.key, g.subscribers.map((s) => s.id)])).toEqual([["fay@review.test", [b.id, a.id]]]);
      expect(mine.body.pagination.total).toBe(1);
      expect((await list("", users.staff)).body.pagination.total).toBe(2);
      // Another branch's subscriber is an unknown id to them.
      const outside = (await database.prisma.subscriber.findFirst({ where: { branch_id: away }, select: { id: true } }))!.id;
      expect((await post(dismissPOST, { ids: [a.id, outside] }, scoped)).status).toBe(404);
    });

    it("refuses bad filters and bodies with a 400 naming them", async () => {
      expect((await list("?rule=phone")).status).toBe(400);
      expect((await list("?page=0")).status).toBe(400);
      for (const json of [{ ids: [1] }, { ids: [1, 1] }, { ids: "1,2" }, { ids: [1, 2], extra: true }, [], null]) {
        const answer = await post(dismissPOST, json);
        expect(answer.status, JSON.stringify(json)).toBe(400);
      }
      expect((await post(dismissPOST, { ids: [2_000_000_000, 2_000_000_001] })).status).toBe(404);
    });
  });
}
