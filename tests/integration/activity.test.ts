import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTranslator } from "use-intl/core";
import { GET } from "@/app/api/v1/activity/route";
import { listShownActivity, type ActivityWords } from "@/lib/activity/queries";
import type { SessionUser } from "@/lib/auth/permissions";
import { branchScope } from "@/lib/auth/scope";
import type { Database } from "@/lib/db/client";
import { catalogue } from "@/lib/i18n/catalogues";
import { mergeBodySchema } from "@/lib/subscribers/duplicate-schema";
import { mergeSubscribers } from "@/lib/subscribers/merge";
import { findSubscriber } from "@/lib/subscribers/record";
import { requestBulkChange } from "@/lib/subscribers/bulk";
import { createSubscriber } from "@/lib/subscribers/mutations";
import { subscriberInputSchema } from "@/lib/subscribers/schema";
import { actAs, createUsers, testDatabase, testDbKinds } from "../helpers/db";
import { apiRequest } from "../helpers/http";

const EVERY = branchScope({ role: "admin", branch_ids: null });

// GET /api/v1/activity: one's own changes only, newest first and paged as every list; an
// administrator's `user_id` picks another's, anyone else's is a 403; deletions are read through
// the reader's branch scope; no session is a 401.

type Body = { data: { kind: string; id: string; status: string; summary: string; can_undo: boolean; user: { id: number } | null }[]; pagination: Record<string, number> };

for (const kind of testDbKinds()) {
  describe(`GET /api/v1/activity on ${kind}`, () => {
    let database: Database;
    let users: { admin: SessionUser; staff: SessionUser };
    let branches: { a: number; b: number };
    const get = async (query = "", as: SessionUser | null = users.staff) => {
      actAs(as);
      const response = await GET(apiRequest(`/api/v1/activity${query}`), {});
      return { status: response.status, body: (await response.json()) as Body & { error?: { code: string } } };
    };

    beforeAll(async () => {
      database = await testDatabase(kind);
      users = await createUsers(database);
      const [a, b] = await Promise.all(["Activity A", "Activity B"].map((name) => database.prisma.branch.create({ data: { name } })));
      branches = { a: a!.id, b: b!.id };
      const s = await createSubscriber(
        EVERY,
        subscriberInputSchema.parse({ first_name: "Ada", last_name: "Activity", email: "ada@activity.test", mobile: "+447400900001", subscription_status: "pending", is_mandatory: false }),
        users.admin,
      );
      // Eleven changes of the staff member's (two pages), one of the admin's.
      for (let i = 0; i < 11; i++) await requestBulkChange(EVERY, users.staff, { ids: [s.id] }, { subscription_status: i % 2 ? "pending" : "active" });
      await requestBulkChange(EVERY, users.admin, { ids: [s.id] }, { is_mandatory: true });
      // Deletions the staff member made (as an admin, say) in two branches.
      for (const [id, branch] of [[900_001, branches.a], [900_002, branches.b]] as const) {
        await database.prisma.subscriberTrash.create({
          data: { id, first_name: "Del", last_name: `In ${branch}`, email: `del${id}@activity.test`, mobile: `+4474009${id}`.slice(0, 13), branch_id: branch, subscription_status: "pending", is_duplicate: false, is_mandatory: false, created_at: new Date(), deleted_by: users.staff.id },
        });
      }
    });
    afterAll(async () => {
      actAs(null);
      await database.close();
    });

    it("answers one's own changes only, newest first, 10 a page", async () => {
      const first = await get();
      expect(first.status).toBe(200);
      expect(first.body.pagination).toEqual({ total: 13, length: 2, page: 1, per_page: 10 });
      expect(first.body.data).toHaveLength(10);
      expect(first.body.data.every((e) => e.user?.id === users.staff.id)).toBe(true);
      // Newest first: the deletions made last, then the last bulk change.
      expect(first.body.data.slice(0, 3).map((e) => e.kind)).toEqual(["subscriber_deletion", "subscriber_deletion", "bulk_change"]);
      expect(first.body.data[2]).toMatchObject({ status: "completed", can_undo: true, summary: "Bulk change of 1 subscriber: set the status to active" });
      // Deletions are restored from the trash, by administrators only.
      expect(first.body.data.filter((e) => e.kind === "subscriber_deletion").map((e) => e.can_undo)).toEqual([false, false]);
      const second = await get("?page=2");
      expect(second.body.pagination).toMatchObject({ total: 13, length: 2, page: 2 });
      expect(second.body.data).toHaveLength(3);
    });

    it("lets an administrator pick another user, and no one else", async () => {
      const own = await get("", users.admin);
      expect(own.body.pagination.total).toBe(1);
      expect(own.body.data[0]).toMatchObject({ kind: "bulk_change", summary: "Bulk change of 1 subscriber: set mandatory to yes" });
      const theirs = await get(`?user_id=${users.staff.id}`, users.admin);
      expect(theirs.body.pagination.total).toBe(13);
      expect(theirs.body.data.find((e) => e.kind === "subscriber_deletion")).toMatchObject({ status: "in_trash", can_undo: true });
      const refused = await get(`?user_id=${users.admin.id}`);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({ code: "forbidden" });
      expect((await get(`?user_id=${users.staff.id}`)).status).toBe(200);
      const bad = await get("?user_id=abc");
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({ code: "invalid_input" });      // The page's filter: by email, as typed; one no one has is an empty list, for administrators.
      expect((await get(`?user=${encodeURIComponent(` ${users.staff.email.toUpperCase()} `)}`, users.admin)).body.pagination.total).toBe(13);
      expect((await get(`?user=nobody%40example.com`, users.admin)).body).toMatchObject({ data: [], pagination: { total: 0 } });
      expect((await get(`?user=${encodeURIComponent(users.admin.email)}&user_id=${users.staff.id}`, users.admin)).body.pagination.total).toBe(13);
      // Anyone else learns nothing of others' emails: someone's or no one's, a 403.
      expect((await get(`?user=${encodeURIComponent(users.admin.email)}`)).status).toBe(403);
      expect((await get(`?user=nobody%40example.com`)).status).toBe(403);
      expect((await get(`?user=${encodeURIComponent(users.staff.email)}`)).body.pagination.total).toBe(13);
    });

    it("reads deletions through the reader's branch scope", async () => {
      const scoped = { ...users.staff, branch_ids: [branches.a] };
      const { body } = await get("", scoped);
      expect(body.pagination.total).toBe(12);
      expect(body.data.filter((e) => e.kind === "subscriber_deletion").map((e) => e.id)).toEqual(["900001"]);
    });

    it("names the records of a merge as the reader's language numbers them", async () => {
      const [survivor, merged] = await Promise.all(
        [1, 2].map((i) =>
          createSubscriber(
            EVERY,
            subscriberInputSchema.parse({ first_name: "Mia", last_name: "Merge", email: `mia${i}@activity.test`, mobile: `+44740090010${i}`, subscription_status: "pending", is_mandatory: false }),
            users.admin,
          ),
        ),
      );
      const updated_at = Object.fromEntries(await Promise.all([survivor!, merged!].map(async (s) => [String(s.id), (await findSubscriber(EVERY, s.id))!.updated_at.toISOString()])));
      await mergeSubscribers(EVERY, mergeBodySchema.parse({ survivor_id: survivor!.id, merged_ids: [merged!.id], updated_at }), users.admin);
      const english = await get("", users.admin);
      expect(english.body.data[0]).toMatchObject({ kind: "merge", summary: `Merged #${merged!.id} into #${survivor!.id}` });
      const fr = createTranslator({ locale: "fr", messages: catalogue("fr") }) as unknown as ActivityWords;
      const { data } = await listShownActivity({ ...users.admin, scope: EVERY }, { page: 1 }, fr, (items) => new Intl.ListFormat("fr").format(items));
      expect(data[0]).toMatchObject({ kind: "merge", summary: `Fusion de nº ${merged!.id} dans nº ${survivor!.id}` });
    });

    it("answers 401 without a session", async () => {
      const { status, body } = await get("", null);
      expect(status).toBe(401);
      expect(body.error).toMatchObject({ code: "unauthorized" });
    });
  });
}
