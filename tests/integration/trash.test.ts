import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as subscribersGET } from "@/app/api/v1/subscribers/route";
import { DELETE as subscriberDELETE, GET as subscriberGET, PATCH as subscriberPATCH } from "@/app/api/v1/subscribers/[id]/route";
import { DELETE as branchDELETE, GET as branchGET } from "@/app/api/v1/branches/[id]/route";
import { GET as branchesGET, POST as branchesPOST } from "@/app/api/v1/branches/route";
import { GET as trashSubscribersGET } from "@/app/api/v1/trash/subscribers/route";
import { GET as trashBranchesGET } from "@/app/api/v1/trash/branches/route";
import { POST as restoreSubscriberPOST } from "@/app/api/v1/trash/subscribers/[id]/restore/route";
import { POST as restoreBranchPOST } from "@/app/api/v1/trash/branches/[id]/restore/route";
import { DELETE as eraseSubscriberDELETE } from "@/app/api/v1/trash/subscribers/[id]/route";
import { DELETE as eraseBranchDELETE } from "@/app/api/v1/trash/branches/[id]/route";
import { branchScope, branchScopeOfUser } from "@/lib/auth/scope";
import type { SessionUser } from "@/lib/auth/permissions";
import { connection } from "@/lib/db/sql";
import { exportQuery } from "@/lib/export/rows";
import { problem } from "@/lib/i18n/problem";
import { problemsIn } from "@/lib/i18n/problems-in";
import { checkDuplicates } from "@/lib/subscribers/mutations";
import { subscriberHistory } from "@/lib/subscribers/record";
import { purgeTrash } from "@/lib/trash/purge";
import { actAs, testDbKinds } from "../helpers/db";
import { closeExportSuite, openExportSuite, type ExportSuite } from "../helpers/export-test";
import { apiRequest, routeContext } from "../helpers/http";

// The trash (docs/API.md, Trash): a deleted subscriber or branch leaves every list, count, filter,
// export, duplicate check and record route, and comes back by a restore; a trashed branch's
// subscribers keep their link and show no branch; erasing forgets the values its audit events and
// exports held; the clean-up erases what is older than TRASH_RETENTION_DAYS.

const EVERY = branchScope({ role: "admin", branch_ids: null });
const NO_FILTERS = { is_duplicate: undefined, is_mandatory: undefined };
const RULE = `(EXISTS (SELECT 1 FROM subscribers e WHERE lower(e.email) = lower(t.email) AND e.id < t.id)
  OR EXISTS (SELECT 1 FROM subscribers e WHERE e.mobile = t.mobile AND e.id < t.id))`;

for (const kind of testDbKinds()) {
  describe(`the trash on ${kind}`, () => {
    let s: ExportSuite;
    const q = async <T,>(text: string) => (await connection()).query<T>(text);
    const call = async (user: SessionUser, handler: (r: Request, c: never) => Promise<Response>, path: string, init: { method?: string; json?: unknown } = {}, id?: number) => {
      actAs(user);
      const response = await handler(apiRequest(path, init), routeContext({ id: String(id ?? "") }) as never);
      const text = await response.text();
      return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown> & { data?: Record<string, unknown>[]; pagination?: { total: number } }) : null };
    };
    const total = async (query = "") => (await call(s.admin, subscribersGET, `/api/v1/subscribers${query}`)).body!.pagination!.total;
    const countsExact = async () => {
      const [row] = await q<{ kept: number; actual: number }>(`SELECT (SELECT coalesce(sum(total), 0)::int FROM subscriber_status_counts) AS kept, (SELECT count(*)::int FROM subscribers) AS actual`);
      expect(row!.kept).toBe(row!.actual);
    };
    const flagsExact = async () => expect(await q(`SELECT t.id FROM subscribers t WHERE t.is_duplicate <> ${RULE}`)).toEqual([]);

    beforeAll(async () => {
      s = await openExportSuite(kind, 40);
      await q(`UPDATE subscribers t SET is_duplicate = ${RULE}`);
    });
    afterAll(async () => closeExportSuite(s));

    it("a deleted subscriber leaves lists, counts, filters, exports, duplicate checks and its record, and comes back restored", async () => {
      const [target] = await q<{ id: number; email: string; status: string; branch_id: number | null }>(
        `SELECT id, email, subscription_status::text AS status, branch_id FROM subscribers WHERE branch_id = 1 ORDER BY id LIMIT 1`);
      const { id, email, status } = target!;
      const before = { all: await total(), byStatus: await total(`?subscription_status=${status}`), byEmail: await total(`?email=${email}`), byBranch: await total("?branch_name=Northgate") };
      expect(before.byEmail).toBe(1);

      expect((await call(s.admin, subscriberDELETE, `/api/v1/subscribers/${id}`, { method: "DELETE" }, id)).status).toBe(204);
      expect((await call(s.admin, subscriberGET, `/api/v1/subscribers/${id}`, {}, id)).status).toBe(404);
      expect(await total()).toBe(before.all - 1);
      expect(await total(`?subscription_status=${status}`)).toBe(before.byStatus - 1);
      expect(await total(`?email=${email}`)).toBe(0);
      expect(await total("?branch_name=Northgate")).toBe(before.byBranch - 1);
      expect(await total(`?id=${id}`)).toBe(0);
      const exported = await (await connection()).query<{ id: string }>(exportQuery(EVERY, NO_FILTERS));
      expect(exported.map((r) => Number(r.id))).not.toContain(id);
      expect((await (await connection()).query<{ id: string }>(exportQuery(EVERY, { ...NO_FILTERS, email }))).length).toBe(0);
      expect(await checkDuplicates(EVERY, { email })).toMatchObject({ email: null });
      expect(await subscriberHistory(EVERY, id)).toEqual([]);
      await countsExact();

      const listed = await call(s.admin, trashSubscribersGET, `/api/v1/trash/subscribers?name=${encodeURIComponent(email)}`);
      expect(listed.status).toBe(200);
      expect(listed.body!.pagination).toMatchObject({ total: 1 });
      expect(listed.body!.data![0]).toMatchObject({ id, email, deleted_by: { id: s.admin.id, name: s.admin.name }, merged_into: null, branch_name: "Northgate" });
      // Staff never see the trash.
      expect((await call(s.staff, trashSubscribersGET, "/api/v1/trash/subscribers")).status).toBe(403);
      expect((await call(s.staff, restoreSubscriberPOST, `/api/v1/trash/subscribers/${id}/restore`, { method: "POST" }, id)).status).toBe(403);

      const restored = await call(s.admin, restoreSubscriberPOST, `/api/v1/trash/subscribers/${id}/restore`, { method: "POST" }, id);
      expect(restored.status).toBe(200);
      expect(restored.body).toMatchObject({ id, email, branch_name: "Northgate" });
      expect((await call(s.admin, subscriberGET, `/api/v1/subscribers/${id}`, {}, id)).status).toBe(200);
      expect(await total()).toBe(before.all);
      // Restoring again, or an id never trashed: 404.
      expect((await call(s.admin, restoreSubscriberPOST, `/api/v1/trash/subscribers/${id}/restore`, { method: "POST" }, id)).status).toBe(404);
      const events = await q<{ action: string }>(`SELECT action FROM audit_events WHERE entity = 'subscriber' AND entity_id = '${id}' ORDER BY id`);
      expect(events.map((e) => e.action)).toEqual(["subscriber.delete", "subscriber.restore"]);
      await countsExact();
      await flagsExact();
    });

    it("deleting and restoring decide the duplicate flags of its matches again", async () => {
      const [first] = await q<{ id: number }>(`INSERT INTO subscribers (first_name, last_name, email, mobile, subscription_status) VALUES ('Dup', 'First', 'pair@trash.test', '+15557770001', 'active') RETURNING id`);
      const [second] = await q<{ id: number }>(`INSERT INTO subscribers (first_name, last_name, email, mobile, subscription_status, is_duplicate) VALUES ('Dup', 'Second', 'PAIR@trash.test', '+15557770002', 'active', true) RETURNING id`);
      await flagsExact();
      await call(s.admin, subscriberDELETE, `/api/v1/subscribers/${first!.id}`, { method: "DELETE" }, first!.id);
      expect(await q(`SELECT is_duplicate FROM subscribers WHERE id = ${second!.id}`)).toEqual([{ is_duplicate: false }]);
      // The duplicate check no longer finds it.
      expect(await checkDuplicates(EVERY, { email: "pair@trash.test" })).toMatchObject({ email: second!.id });
      await call(s.admin, restoreSubscriberPOST, `/api/v1/trash/subscribers/${first!.id}/restore`, { method: "POST" }, first!.id);
      expect(await q(`SELECT id, is_duplicate FROM subscribers WHERE id IN (${first!.id}, ${second!.id}) ORDER BY id`)).toEqual([
        { id: first!.id, is_duplicate: false },
        { id: second!.id, is_duplicate: true },
      ]);
      await flagsExact();
    });

    it("a trashed branch: gone from the branch lists, its subscribers linked but without a branch, its name free; restoring it is a 409 while the name is taken", async () => {
      const [branch] = await q<{ id: number }>(`INSERT INTO branches (name, updated_at) VALUES ('Harbour', now()) RETURNING id`);
      const id = branch!.id;
      await q(`UPDATE subscribers SET branch_id = ${id} WHERE id IN (SELECT id FROM subscribers WHERE branch_id IS NULL ORDER BY id LIMIT 3)`);
      const scopedUser = await s.database.prisma.user.create({
        data: { email: "harbour@test.local", name: "Harbour Staff", role: "staff", password_hash: "x", branch_scoped: true, branches: { create: [{ branch_id: id }] } },
        select: { id: true },
      });
      expect((await branchScopeOfUser(scopedUser.id)).branchIds).toEqual([id]);
      const noBranch = await total("?sort=branch_name");

      expect((await call(s.staff, branchDELETE, `/api/v1/branches/${id}`, { method: "DELETE" }, id)).status).toBe(403);
      expect((await call(s.admin, branchDELETE, `/api/v1/branches/${id}`, { method: "DELETE" }, id)).status).toBe(204);
      expect((await call(s.admin, branchGET, `/api/v1/branches/${id}`, {}, id)).status).toBe(404);
      expect((await call(s.admin, branchesGET, "/api/v1/branches?name=Harbour")).body!.pagination!.total).toBe(0);
      expect(await total("?branch_name=Harbour")).toBe(0);
      expect(await total("?sort=branch_name")).toBe(noBranch);
      const rows = (await call(s.admin, subscribersGET, "/api/v1/subscribers?sort=-branch_name")).body!.data!;
      expect(rows.every((r) => r.branch_name !== "Harbour")).toBe(true);
      expect(await q(`SELECT count(*)::int AS n FROM subscribers WHERE branch_id = ${id}`)).toEqual([{ n: 3 }]);
      // A record of it shows no branch, and an edit keeps the link.
      const [linked] = await q<{ id: number }>(`SELECT id FROM subscribers WHERE branch_id = ${id} ORDER BY id LIMIT 1`);
      const record = await call(s.admin, subscriberGET, `/api/v1/subscribers/${linked!.id}`, {}, linked!.id);
      expect(record.body).toMatchObject({ branch_name: null });
      const edited = await call(s.admin, subscriberPATCH, `/api/v1/subscribers/${linked!.id}`, { method: "PATCH", json: { last_name: "Edited", updated_at: record.body!.updated_at } }, linked!.id);
      expect(edited.status).toBe(200);
      expect(await q(`SELECT branch_id FROM subscribers WHERE id = ${linked!.id}`)).toEqual([{ branch_id: id }]);
      // The scoped staff member sees nothing of it.
      expect((await branchScopeOfUser(scopedUser.id)).branchIds).toEqual([]);

      const trashed = await call(s.admin, trashBranchesGET, "/api/v1/trash/branches?name=Harbour");
      expect(trashed.body!.data).toEqual([expect.objectContaining({ id, name: "Harbour", deleted_by: { id: s.admin.id, name: s.admin.name } })]);
      // Its name is free; restoring the old one is then a 409 naming the one that took it.
      const taken = await call(s.admin, branchesPOST, "/api/v1/branches", { method: "POST", json: { name: "harbour" } });
      expect(taken.status).toBe(201);
      const refused = await call(s.admin, restoreBranchPOST, `/api/v1/trash/branches/${id}/restore`, { method: "POST" }, id);
      expect(refused.status).toBe(409);
      expect(JSON.stringify(refused.body)).toContain(`“harbour” now (id ${taken.body!.id as number})`);
      await q(`UPDATE branches SET name = 'Harbour new' WHERE id = ${taken.body!.id as number}`);
      const restored = await call(s.admin, restoreBranchPOST, `/api/v1/trash/branches/${id}/restore`, { method: "POST" }, id);
      expect(restored).toMatchObject({ status: 200, body: { id, name: "Harbour" } });
      expect(await total("?branch_name=Harbour")).toBeGreaterThanOrEqual(3);
      expect((await branchScopeOfUser(scopedUser.id)).branchIds).toEqual([id]);
      expect((await call(s.admin, subscriberGET, `/api/v1/subscribers/${linked!.id}`, {}, linked!.id)).body).toMatchObject({ branch_name: "Harbour" });
      await countsExact();
    });

    it("erasing a branch leaves its subscribers, trashed ones too, without a branch", async () => {
      const [branch] = await q<{ id: number }>(`INSERT INTO branches (name, updated_at) VALUES ('Erased', now()) RETURNING id`);
      const id = branch!.id;
      const linked = await q<{ id: number }>(`UPDATE subscribers SET branch_id = ${id} WHERE id IN (SELECT id FROM subscribers WHERE branch_id IS NULL ORDER BY id LIMIT 2) RETURNING id`);
      await call(s.admin, subscriberDELETE, `/api/v1/subscribers/${linked[0]!.id}`, { method: "DELETE" }, linked[0]!.id);
      expect((await call(s.admin, eraseBranchDELETE, `/api/v1/trash/branches/${id}`, { method: "DELETE" }, id)).status).toBe(404); // not in the trash
      await call(s.admin, branchDELETE, `/api/v1/branches/${id}`, { method: "DELETE" }, id);
      expect((await call(s.staff, eraseBranchDELETE, `/api/v1/trash/branches/${id}`, { method: "DELETE" }, id)).status).toBe(403);
      expect((await call(s.admin, eraseBranchDELETE, `/api/v1/trash/branches/${id}`, { method: "DELETE" }, id)).status).toBe(204);
      expect(await q(`SELECT id FROM branches WHERE id = ${id}`)).toEqual([]);
      expect(await q(`SELECT branch_id FROM subscribers WHERE id = ${linked[1]!.id}`)).toEqual([{ branch_id: null }]);
      expect(await q(`SELECT branch_id FROM subscriber_trash WHERE id = ${linked[0]!.id}`)).toEqual([{ branch_id: null }]);
      expect(await q(`SELECT action FROM audit_events WHERE entity = 'branch' AND entity_id = '${id}' ORDER BY id`)).toEqual([
        { action: "branch.delete" },
        { action: "branch.erase" },
      ]);
      await countsExact();
    });

    it("Delete forever erases the subscriber, its audit values and withdraws an export made before its deletion that kept no ids", async () => {
      const [row] = await q<{ id: number; email: string }>(`SELECT id, email FROM subscribers ORDER BY id DESC LIMIT 1`);
      await q(`INSERT INTO subscriber_exports (id, user_id, status, fresh, created_at) VALUES ('oldexport0000000000000', ${s.staff.id}, 'completed', true, now() - interval '1 minute')`);
      await call(s.admin, subscriberDELETE, `/api/v1/subscribers/${row!.id}`, { method: "DELETE" }, row!.id);
      await q(`INSERT INTO subscriber_exports (id, user_id, status, fresh, created_at) VALUES ('newexport0000000000000', ${s.staff.id}, 'completed', true, now() + interval '1 minute')`);
      expect((await call(s.staff, eraseSubscriberDELETE, `/api/v1/trash/subscribers/${row!.id}`, { method: "DELETE" }, row!.id)).status).toBe(403);
      expect((await call(s.admin, eraseSubscriberDELETE, `/api/v1/trash/subscribers/${row!.id}`, { method: "DELETE" }, row!.id)).status).toBe(204);
      expect((await call(s.admin, eraseSubscriberDELETE, `/api/v1/trash/subscribers/${row!.id}`, { method: "DELETE" }, row!.id)).status).toBe(404);
      expect(await q(`SELECT id FROM subscriber_trash WHERE id = ${row!.id}`)).toEqual([]);
      const events = await q<{ action: string; before: unknown; after: unknown }>(`SELECT action, before, after FROM audit_events WHERE entity = 'subscriber' AND entity_id = '${row!.id}' ORDER BY id`);
      expect(events.map((e) => e.action)).toEqual(["subscriber.delete", "subscriber.erase"]);
      expect(JSON.stringify(events)).not.toContain(row!.email);
      expect(events[0]!.before).toEqual({ id: row!.id, erased: true });
      // Neither recorded the ids it held: the one made before the deletion may hold it, and is withdrawn,
      // its owner told why by a problem key, read in their own language.
      const withdrawn = problem("export.withdrawn", { rows: 0, why: "deleted" });
      expect(await q(`SELECT id, status::text AS status, error FROM subscriber_exports WHERE id IN ('oldexport0000000000000', 'newexport0000000000000') ORDER BY id`)).toEqual([
        { id: "newexport0000000000000", status: "completed", error: null },
        { id: "oldexport0000000000000", status: "failed", error: withdrawn },
      ]);
      expect(problemsIn("en")(withdrawn)).toBe("Your file of 0 rows was withdrawn: it held a subscriber who was deleted forever. Request the export again.");
      expect(problemsIn("fr")(withdrawn)).toBe("Votre fichier de 0 ligne a été retiré : il contenait un abonné supprimé définitivement. Demandez l’export à nouveau.");
    });

    it("the clean-up erases what has been in the trash longer than TRASH_RETENTION_DAYS, and nothing newer", async () => {
      process.env.TRASH_RETENTION_DAYS = "10";
      try {
        const rows = await q<{ id: number }>(`SELECT id FROM subscribers ORDER BY id LIMIT 3`);
        for (const { id } of rows) await call(s.admin, subscriberDELETE, `/api/v1/subscribers/${id}`, { method: "DELETE" }, id);
        const [old, , fresh] = rows.map((r) => r.id);
        await q(`UPDATE subscriber_trash SET deleted_at = now() - interval '11 days' WHERE id IN (${rows[0]!.id}, ${rows[1]!.id})`);
        const [branch] = await q<{ id: number }>(`INSERT INTO branches (name, updated_at, deleted_at) VALUES ('Old trashed', now(), now() - interval '11 days') RETURNING id`);
        const [kept] = await q<{ id: number }>(`INSERT INTO branches (name, updated_at, deleted_at) VALUES ('New trashed', now(), now() - interval '9 days') RETURNING id`);
        await q(`INSERT INTO bulk_changes (id, user_id, status, target, change, created_at) VALUES ('oldbulk000000000000000', ${s.staff.id}, 'completed', '{}', '{"is_mandatory": true}', now() - interval '11 days')`);
        await q(`INSERT INTO bulk_change_rows (bulk_change_id, subscriber_id, old_mandatory, changed_at) VALUES ('oldbulk000000000000000', ${fresh}, false, now())`);

        const result = await purgeTrash();
        expect(result).toMatchObject({ subscribers: 2, branches: 1, undo_rows: 1 });
        expect((await q<{ id: number }>(`SELECT id FROM subscriber_trash WHERE id IN (${rows.map((r) => r.id).join(", ")}) ORDER BY id`)).map((r) => r.id)).toEqual([fresh]);
        expect(await q(`SELECT id FROM branches WHERE id IN (${branch!.id}, ${kept!.id})`)).toEqual([{ id: kept!.id }]);
        expect(await q(`SELECT count(*)::int AS n FROM audit_events WHERE action = 'trash.purge'`)).toEqual([{ n: 1 }]);
        expect(await purgeTrash()).toMatchObject({ subscribers: 0, branches: 0, undo_rows: 0 });
        expect(old).toBeDefined();
      } finally {
        delete process.env.TRASH_RETENTION_DAYS;
      }
      await countsExact();
      await flagsExact();
    });
  });
}
