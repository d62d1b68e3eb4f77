import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as branchesGET } from "@/app/api/v1/branches/route";
import { GET as branchGET } from "@/app/api/v1/branches/[id]/route";
import { GET as subscribersGET, POST as subscribersPOST } from "@/app/api/v1/subscribers/route";
import { GET as subscriberGET, PATCH as subscriberPATCH } from "@/app/api/v1/subscribers/[id]/route";
import { POST as importPOST } from "@/app/api/v1/subscribers/imports/route";
import { GET as rejectedGET } from "@/app/api/v1/subscribers/imports/[id]/rejected/route";
import { POST as usersPOST } from "@/app/api/v1/users/route";
import { PATCH as userPATCH } from "@/app/api/v1/users/[id]/route";
import { bulkChangeAction } from "@/app/(console)/subscribers/bulk-actions";
import { checkDuplicateAction } from "@/app/(console)/subscribers/actions";
import type { SessionUser } from "@/lib/auth/permissions";
import { branchScope } from "@/lib/auth/scope";
import { connection, sql } from "@/lib/db/sql";
import { runExport } from "@/lib/export/run";
import { runImport } from "@/lib/imports/run";
import { countTarget, requestBulkChange, runBulkChange } from "@/lib/subscribers/bulk";
import { ANOTHER_BRANCH, earlierMatches, getSubscriber, subscriberHistory } from "@/lib/subscribers/record";
import { editableFields, updateSubscriber } from "@/lib/subscribers/edit";
import { subscriberCountSql } from "@/lib/subscribers/queries";
import { subscriberFiltersSchema } from "@/lib/subscribers/filters";
import { subscriberInputSchema } from "@/lib/subscribers/schema";
import { exportKey } from "@/lib/export/files";
import { storage } from "@/lib/storage";
import { actAs, testDbKinds } from "../helpers/db";
import { closeExportSuite, download, openExportSuite, parseCsv, postExport, type ExportSuite } from "../helpers/export-test";
import { apiRequest, routeContext } from "../helpers/http";
import { waitingForLocks } from "../helpers/postgres";

// Branch scope on PGlite and PostgreSQL, through the API's handlers and the actions: a staff
// member limited to branch A sees, exports, imports and changes A's subscribers only; anything of
// branch B (or without a branch) is what an unknown id is; the totals come from the per-branch
// kept counts and stay exact as subscribers move (docs/decisions/0028-branch-scope.md).

type Json = Record<string, unknown>;

for (const kind of testDbKinds()) {
  describe(`branch scope on ${kind}`, () => {
    let s: ExportSuite;
    let scoped: SessionUser;
    let a = 0;
    let b = 0;
    /** Subscribers of A, of B and without a branch. */
    const ids = { a: [] as number[], b: [] as number[], none: [] as number[] };
    const q = async <T,>(text: string) => (await connection()).query<T>(text);
    /** The test runs the scoped user's jobs itself: their queue entries are done, as the worker would leave them. */
    const jobsDone = () => q(`UPDATE pgboss.job SET state = 'completed' WHERE data->>'userId' = '${scoped.id}'`);

    const call = async (user: SessionUser, run: () => Promise<Response>) => {
      actAs(user);
      const response = await run();
      return { status: response.status, body: (await response.json().catch(() => null)) as Json };
    };
    const list = async (user: SessionUser, query = "") => call(user, () => subscribersGET(apiRequest(`/api/v1/subscribers${query}`), {}));
    const record = async (user: SessionUser, id: number) => call(user, () => subscriberGET(apiRequest(`/api/v1/subscribers/${id}`), routeContext({ id: String(id) })));

    /** How many subscribers branch A has now. */
    const inScopeCount = async () => (await q<{ n: number }>(`SELECT count(*)::int AS n FROM subscribers WHERE branch_id = ${a}`))[0]!.n;
    /** The per-branch kept counts agree with count(*), branch by branch and flag by flag. */
    const branchCountsExact = async () =>
      expect(
        await q(`SELECT * FROM (SELECT branch_id, subscription_status, is_duplicate, is_mandatory, count(*)::int AS n FROM subscribers
            WHERE branch_id IS NOT NULL GROUP BY 1, 2, 3, 4) c
          FULL JOIN subscriber_branch_counts k USING (branch_id, subscription_status, is_duplicate, is_mandatory)
         WHERE coalesce(c.n, 0) <> coalesce(k.total, 0)`),
      ).toEqual([]);

    beforeAll(async () => {
      s = await openExportSuite(kind, 30);
      const made = await s.database.prisma.branch.createManyAndReturn({ data: [{ name: "Scope A" }, { name: "Scope B" }], select: { id: true } });
      [a, b] = made.map((x) => x.id) as [number, number];
      // Subscribers 1–12 to A, 13–24 to B, the rest without a branch; A's 2 duplicates one of B's by email.
      const all = (await q<{ id: number }>(`SELECT id FROM subscribers ORDER BY id`)).map((r) => r.id);
      ids.a = all.slice(0, 12);
      ids.b = all.slice(12, 24);
      ids.none = all.slice(24);
      await q(`UPDATE subscribers SET branch_id = ${a} WHERE id IN (${ids.a.join(",")})`);
      await q(`UPDATE subscribers SET branch_id = ${b} WHERE id IN (${ids.b.join(",")})`);
      await q(`UPDATE subscribers SET subscription_status = 'active' WHERE id IN (${[...ids.a.slice(0, 5), ...ids.b.slice(0, 3)].join(",")})`);
      await q(`UPDATE subscribers SET subscription_status = 'pending' WHERE id IN (${[...ids.a.slice(5), ...ids.b.slice(3)].join(",")})`);
      // A later subscriber of A shares an earlier one of B's email: a duplicate of another branch's.
      await q(`INSERT INTO subscribers (first_name, last_name, email, mobile, branch_id, subscription_status, is_duplicate)
        SELECT 'Late', 'Copy', upper(email), '+447700900999', ${a}, 'active', true FROM subscribers WHERE id = ${ids.b[0]}`);
      ids.a.push((await q<{ id: number }>(`SELECT max(id) AS id FROM subscribers`))[0]!.id);
      // The admin scopes a new staff member to A, through the API.
      const created = await call(s.admin, () =>
        usersPOST(apiRequest("/api/v1/users", { method: "POST", json: { name: "Scoped Sam", email: `sam-${kind}@scope.test`, role: "staff", branch_ids: [a] } }), {}),
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body).toMatchObject({ branch_ids: [a], role: "staff" });
      scoped = { id: created.body.id as number, name: "Scoped Sam", email: `sam-${kind}@scope.test`, role: "staff", branch_ids: [a] };
    }, 120_000);
    afterAll(async () => closeExportSuite(s));

    it("validates branch_ids as API.md says, and audits the change", async () => {
      const patch = (id: number, json: Json) => call(s.admin, () => userPATCH(apiRequest(`/api/v1/users/${id}`, { method: "PATCH", json }), routeContext({ id: String(id) })));
      for (const bad of [[], [0], ["x"], [999_999], Array.from({ length: 1001 }, (_, i) => i + 1), "all", {}]) {
        const answer = await patch(s.staff.id, { branch_ids: bad });
        expect(answer.status, JSON.stringify(bad).slice(0, 40)).toBe(400);
        expect(Object.keys((answer.body.error as { fields: Json }).fields).every((k) => k.startsWith("branch_ids")), JSON.stringify(answer.body)).toBe(true);
      }
      // Given for an administrator: 400, when creating and when changing.
      expect((await patch(s.admin.id, { branch_ids: [a] })).status).toBe(400);
      expect((await patch(s.admin.id, { branch_ids: null })).status).toBe(400);
      expect((await patch(s.staff.id, { role: "admin", branch_ids: [a] })).status).toBe(400);
      const admin = await call(s.admin, () => usersPOST(apiRequest("/api/v1/users", { method: "POST", json: { name: "Ad Min", email: `ad-${kind}@scope.test`, role: "admin", branch_ids: [a] } }), {}));
      expect(admin.status).toBe(400);
      // Set, kept sorted and unique, then back to every branch; each change audited with before and after.
      expect(await patch(s.staff.id, { branch_ids: [b, a, b] })).toMatchObject({ status: 200, body: { branch_ids: [a, b].sort((x, y) => x - y) } });
      expect(await patch(s.staff.id, { branch_ids: null })).toMatchObject({ status: 200, body: { branch_ids: null } });
      const events = await q<{ before: Json; after: Json }>(`SELECT before, after FROM audit_events WHERE action = 'user.scope_change' AND entity_id = '${s.staff.id}' ORDER BY id`);
      expect(events.map((e) => [e.before.branch_ids, e.after.branch_ids])).toEqual([
        [null, [a, b].sort((x, y) => x - y)],
        [[a, b].sort((x, y) => x - y), null],
      ]);
      // Promoted to admin: every branch, whatever they had.
      await patch(s.staff.id, { branch_ids: [b] });
      expect(await patch(s.staff.id, { role: "admin" })).toMatchObject({ status: 200, body: { role: "admin", branch_ids: null } });
      expect(await patch(s.staff.id, { role: "staff" })).toMatchObject({ status: 200, body: { role: "staff", branch_ids: null } });
    });

    it("lists the scope's subscribers only, with exact totals from the per-branch counts", async () => {
      const all = await list(scoped, "?sort=id");
      expect(all.status).toBe(200);
      const rows = all.body.data as { id: number; branch_name: string }[];
      expect(rows.map((r) => r.id)).toEqual(ids.a.slice(0, 10));
      expect(new Set(rows.map((r) => r.branch_name))).toEqual(new Set(["Scope A"]));
      expect(all.body.pagination).toMatchObject({ total: ids.a.length });
      const inA = async (where: string) => (await q<{ n: number }>(`SELECT count(*)::int AS n FROM subscribers WHERE branch_id = ${a} AND ${where}`))[0]!.n;
      expect((await list(scoped, "?subscription_status=active")).body.pagination).toMatchObject({ total: await inA("subscription_status = 'active'") });
      expect((await list(scoped, "?is_duplicate=true&is_mandatory=false")).body.pagination).toMatchObject({ total: await inA("is_duplicate AND NOT is_mandatory") });
      // Filters naming another branch, or asking for its ids, find nothing.
      expect((await list(scoped, "?branch_name=Scope%20B")).body.pagination).toMatchObject({ total: 0 });
      expect((await list(scoped, `?id=${ids.b[0]}`)).body.pagination).toMatchObject({ total: 0 });
      // Every sort, the last page too.
      for (const sort of ["branch_name", "-branch_name", "last_name", "-created_at", "country_name"]) {
        const page2 = await list(scoped, `?sort=${sort}&page=2`);
        expect((page2.body.data as { id: number }[]).every((r) => ids.a.includes(r.id)), sort).toBe(true);
        expect(page2.body.pagination, sort).toMatchObject({ total: ids.a.length });
      }
      // The kept counts are what the totals read (no count over the table), and they are exact.
      await branchCountsExact();
      // The unscoped staff member still sees everyone.
      expect((await list(s.staff)).body.pagination).toMatchObject({ total: 31 });
    });

    it("answers another branch's subscriber, or one without a branch, exactly as an unknown id", async () => {
      const unknown = await record(scoped, 987_654);
      for (const id of [ids.b[0]!, ids.none[0]!]) {
        expect(await record(scoped, id)).toEqual(unknown);
        const patch = await call(scoped, () =>
          subscriberPATCH(apiRequest(`/api/v1/subscribers/${id}`, { method: "PATCH", json: { last_name: "Taken", updated_at: new Date().toISOString() } }), routeContext({ id: String(id) })),
        );
        expect(patch).toEqual(unknown);
        expect(await subscriberHistory(branchScope(scoped), id)).toEqual([]);
      }
      expect(unknown.status).toBe(404);
      expect((await record(scoped, ids.a[0]!)).status).toBe(200);
    });

    it("creates in the scope only and never moves a subscriber out of it", async () => {
      const body = (branch_id: number | null, n: number) => ({
        first_name: "New",
        last_name: "Scoped",
        email: `new-${n}-${kind}@scope.test`,
        mobile: `+4479111${String(n).padStart(5, "0")}`,
        branch_id,
        subscription_status: "active",
        is_mandatory: false,
      });
      const create = (branch_id: number | null, n: number) => call(scoped, () => subscribersPOST(apiRequest("/api/v1/subscribers", { method: "POST", json: body(branch_id, n) }), {}));
      for (const [branch, n] of [[null, 1], [b, 2], [999_999, 3]] as const) {
        const answer = await create(branch, n);
        expect(answer.status).toBe(400);
        expect(answer.body).toMatchObject({ error: { fields: { branch_id: ["Choose one of your branches."] } } });
      }
      const made = await create(a, 4);
      expect(made).toMatchObject({ status: 201, body: { branch_name: "Scope A" } });
      ids.a.push(made.body.id as number);
      const id = made.body.id as number;
      const current = await record(scoped, id);
      const move = await call(scoped, () =>
        subscriberPATCH(apiRequest(`/api/v1/subscribers/${id}`, { method: "PATCH", json: { branch_id: b, updated_at: current.body.updated_at } }), routeContext({ id: String(id) })),
      );
      expect(move).toMatchObject({ status: 400, body: { error: { fields: { branch_id: ["Choose one of your branches."] } } } });
      const empty = await call(scoped, () =>
        subscriberPATCH(apiRequest(`/api/v1/subscribers/${id}`, { method: "PATCH", json: { branch_id: null, updated_at: current.body.updated_at } }), routeContext({ id: String(id) })),
      );
      expect(empty.status).toBe(400);
      expect((await record(s.admin, id)).body).toMatchObject({ branch_name: "Scope A" });
      await branchCountsExact();
    });

    it("shows only the scope's branches; another's is a 404", async () => {
      const branches = await call(scoped, () => branchesGET(apiRequest("/api/v1/branches"), {}));
      expect((branches.body.data as { id: number }[]).map((x) => x.id)).toEqual([a]);
      expect(branches.body.pagination).toMatchObject({ total: 1 });
      const other = await call(scoped, () => branchGET(apiRequest(`/api/v1/branches/${b}`), routeContext({ id: String(b) })));
      const unknown = await call(scoped, () => branchGET(apiRequest(`/api/v1/branches/987654`), routeContext({ id: "987654" })));
      expect(other).toEqual(unknown);
      expect(other.status).toBe(404);
      expect((await call(scoped, () => branchGET(apiRequest(`/api/v1/branches/${a}`), routeContext({ id: String(a) })))).status).toBe(200);
    });

    it("tells a duplicate of another branch's subscriber without showing it", async () => {
      const late = ids.a[12]!;
      expect((await record(scoped, late)).body).toMatchObject({ is_duplicate: true });
      const detail = (await s.database.prisma.subscriber.findUniqueOrThrow({ where: { id: late } })) as { id: number; email: string; mobile: string };
      expect(await earlierMatches(branchScope(scoped), detail)).toEqual({ matches: [], elsewhere: true });
      expect((await earlierMatches(branchScope(s.staff), detail)).matches.map((m) => m.id)).toEqual([ids.b[0]]);
      actAs(scoped);
      const check = await checkDuplicateAction({ email: detail.email.toLowerCase(), mobile: "", country_id: null });
      expect(check).toEqual({ ok: true, data: { email: "elsewhere", mobile: null } });
      actAs(s.staff);
      expect(await checkDuplicateAction({ email: detail.email.toLowerCase(), mobile: "", country_id: null })).toEqual({ ok: true, data: { email: ids.b[0], mobile: null } });
    });

    it("counts and changes in-scope rows only in a bulk change, by ids and by filters", async () => {
      const statusOf = async (list: number[]) => (await q<{ s: string }>(`SELECT subscription_status::text AS s FROM subscribers WHERE id IN (${list.join(",")})`)).map((r) => r.s);
      const mixed = [ids.a[0]!, ids.a[1]!, ids.b[1]!, ids.none[1]!];
      expect(await countTarget(branchScope(scoped), { ids: mixed })).toBe(2);
      actAs(scoped);
      const byIds = await bulkChangeAction({ target: { ids: mixed }, change: { subscription_status: "cancelled" } });
      expect(byIds).toMatchObject({ ok: true, data: { kind: "done", count: 2 } });
      expect(await statusOf([ids.b[1]!, ids.none[1]!])).not.toContain("cancelled");
      expect(await statusOf([ids.a[0]!, ids.a[1]!])).toEqual(["cancelled", "cancelled"]);
      // Only another branch's ids: nothing matches, as for unknown ids.
      expect(await bulkChangeAction({ target: { ids: [ids.b[2]!] }, change: { is_mandatory: true } })).toMatchObject({ ok: false });
      // By filters (every subscriber): the scope's only.
      const outside = `SELECT id, is_mandatory, subscription_status::text FROM subscribers WHERE branch_id IS DISTINCT FROM ${a} ORDER BY id`;
      const before = await q(outside);
      const byFilters = await bulkChangeAction({ target: { filters: {} }, change: { is_mandatory: true } });
      expect(byFilters).toMatchObject({ ok: true, data: { kind: "done", count: ids.a.length } });
      expect(await q(outside)).toEqual(before);
      expect((await q<{ n: number }>(`SELECT count(*)::int AS n FROM subscribers WHERE branch_id = ${a} AND NOT is_mandatory`))[0]!.n).toBe(0);
      // A job reads its user's scope when it runs.
      await q(`INSERT INTO bulk_changes (id, user_id, target, change, total_rows) VALUES ('scopejob${kind}', ${scoped.id}, '{"filters": {}}', '{"is_mandatory": false}', 0)`);
      expect(await runBulkChange(`scopejob${kind}`)).toEqual({ processed: ids.a.length });
      expect((await q<{ n: number }>(`SELECT count(*)::int AS n FROM subscribers WHERE branch_id = ${a} AND is_mandatory`))[0]!.n).toBe(0);
      expect(await q(outside)).toEqual(before);
      await branchCountsExact();
    });

    it("exports the scope's rows only, file and total_rows, whatever the filters ask", async () => {
      for (const filters of [undefined, { branch_name: "Scope B" }, { id: String(ids.b[0]) }] as (Record<string, string> | undefined)[]) {
        const requested = await postExport(scoped, filters);
        expect(requested.status).toBe(202);
        const expected = filters ? 0 : ids.a.length;
        expect(requested.body).toMatchObject({ total_rows: expected, downloadable_file_status: "in_queue" });
        const [{ id }] = (await q<{ id: string }>(`SELECT id FROM subscriber_exports WHERE user_id = ${scoped.id} AND status = 'in_queue'`)) as [{ id: string }];
        expect(await runExport(id)).toEqual({ exportId: id, rows: expected });
        await jobsDone();
        const [{ total_rows }] = (await q<{ total_rows: number }>(`SELECT total_rows FROM subscriber_exports WHERE id = '${id}'`)) as [{ total_rows: number }];
        expect(total_rows).toBe(expected);
        if (!filters) {
          const response = await download(scoped, `/api/v1/exports/${id}/download`);
          const rows = parseCsv(await response.text()).slice(1);
          expect(rows.map((r) => Number(r[0])).sort((x, y) => x - y)).toEqual([...ids.a].sort((x, y) => x - y));
        }
      }
    });

    it("rejects imported rows of another branch, or of none, as branch_out_of_scope", async () => {
      actAs(scoped);
      const form = new FormData();
      form.set(
        "file",
        new Blob([
          "first_name,last_name,email,mobile,branch_name\n" +
            `In,Scope,in-${kind}@imp.test,+447911200001,Scope A\n` +
            `Other,Branch,other-${kind}@imp.test,+447911200002,Scope B\n` +
            `No,Branch,none-${kind}@imp.test,+447911200003,\n` +
            `Made,Up,madeup-${kind}@imp.test,+447911200004,Nowhere\n`,
        ]),
        "Scoped.csv",
      );
      const response = await importPOST(new Request("http://localhost/api/v1/subscribers/imports", { method: "POST", body: form }), {});
      expect(response.status).toBe(202);
      const { id } = (await response.json()) as { id: string };
      expect(await runImport(id)).toMatchObject({ imported: 1, rejected: 3 });
      await jobsDone();
      const rejected = await rejectedGET(apiRequest(`/api/v1/subscribers/imports/${id}/rejected`), routeContext({ id }));
      const rows = parseCsv(await rejected.text());
      expect(rows.slice(1).map((r) => [r[0], r.at(-1)])).toEqual([
        ["Other", expect.stringContaining("branch_out_of_scope")],
        ["No", expect.stringContaining("branch_out_of_scope")],
        // An unknown name is told the same way: a scoped user learns nothing of other branches.
        ["Made", expect.stringContaining("branch_out_of_scope")],
      ]);
      const imported = await (await connection()).query<{ n: number }>(sql`SELECT count(*)::int AS n FROM subscribers WHERE email LIKE ${`%-${kind}@imp.test`}`);
      expect(imported[0]!.n).toBe(1);
      await branchCountsExact();
    });

    // PGlite runs one statement at a time: nothing can move a subscriber between a bulk change's read and its write.
    if (kind === "postgres") {
      it("does not change a subscriber moved out of the scope between a bulk change's read and its write", async () => {
        const moved = ids.a[11]!;
        const status = () => q<{ status: string }>(`SELECT subscription_status::text AS status FROM subscribers WHERE id = ${moved}`);
        expect(await status()).toEqual([{ status: "pending" }]);
        const mover = new pg.Client({ connectionString: s.database.target.kind === "postgres" ? s.database.target.url : "" });
        await mover.connect();
        try {
          await mover.query("BEGIN");
          await mover.query("UPDATE subscribers SET branch_id = $1 WHERE id = $2", [b, moved]);
          const changing = requestBulkChange(branchScope(scoped), scoped, { ids: [moved] }, { subscription_status: "cancelled" });
          // The change has read the subscriber in branch A (the move is not committed) and waits for its row.
          const waiting = () => waitingForLocks(mover);
          await expect.poll(waiting, { timeout: 10_000 }).toBe(1);
          await mover.query("COMMIT");
          const result = await changing;
          expect(result.kind).toBe("done");
          expect(await q(`SELECT changed_rows FROM bulk_changes WHERE id = '${result.id}'`)).toEqual([{ changed_rows: 0 }]);
          expect(await q(`SELECT subscriber_id FROM bulk_change_rows WHERE bulk_change_id = '${result.id}'`)).toEqual([]);
        } finally {
          await mover.end();
        }
        expect(await status()).toEqual([{ status: "pending" }]);
        await q(`UPDATE subscribers SET branch_id = ${a} WHERE id = ${moved}`);
      });
    }

    it("keeps the per-branch counts exact through moves, deletions and a branch deleted", async () => {
      await q(`UPDATE subscribers SET branch_id = ${b} WHERE id = ${ids.a[3]}`);
      await q(`UPDATE subscribers SET is_duplicate = NOT is_duplicate WHERE id = ${ids.b[4]}`);
      await q(`DELETE FROM subscribers WHERE id = ${ids.b[5]}`);
      await branchCountsExact();
      const c = await s.database.prisma.branch.create({ data: { name: "Scope C" }, select: { id: true } });
      await q(`UPDATE subscribers SET branch_id = ${c.id} WHERE id IN (${ids.b.slice(6, 9).join(",")})`);
      await branchCountsExact();
      await s.database.prisma.branch.delete({ where: { id: c.id } });
      await branchCountsExact();
    });

    it("leaves a scoped user whose only branch is deleted with nothing, never everything", async () => {
      const d = await s.database.prisma.branch.create({ data: { name: "Scope D" }, select: { id: true } });
      const made = await call(s.admin, () =>
        usersPOST(apiRequest("/api/v1/users", { method: "POST", json: { name: "Dee", email: `dee-${kind}@scope.test`, role: "staff", branch_ids: [d.id] } }), {}),
      );
      await s.database.prisma.branch.delete({ where: { id: d.id } });
      const [row] = await q<{ branch_ids: number[] | null }>(`SELECT CASE WHEN branch_scoped THEN ARRAY(SELECT branch_id FROM user_branches WHERE user_id = users.id) END AS branch_ids FROM users WHERE id = ${made.body.id}`);
      expect(row!.branch_ids).toEqual([]);
      const dee: SessionUser = { id: made.body.id as number, name: "Dee", email: `dee-${kind}@scope.test`, role: "staff", branch_ids: [] };
      expect((await list(dee)).body.pagination).toMatchObject({ total: 0 });
      expect((await call(dee, () => branchesGET(apiRequest("/api/v1/branches"), {}))).body.pagination).toMatchObject({ total: 0 });
    });

    it("names no other branch in a subscriber's history, nor the ids an edit decided again", async () => {
      // An admin moves one of B's subscribers to A, giving it a later subscriber's email (which that edit flags again).
      const moved = ids.b[10]!;
      const every = branchScope(s.admin);
      const [later] = (await q<{ id: number; email: string }>(`SELECT id, email FROM subscribers WHERE id > ${moved} AND NOT is_duplicate ORDER BY id LIMIT 1`)) as [{ id: number; email: string }];
      const email = later.email;
      const before = await getSubscriber(every, moved);
      actAs(s.admin);
      await updateSubscriber(every, moved, subscriberInputSchema.parse({ ...editableFields(before), branch_id: a, email }), before.updated_at, s.admin);
      const [{ after }] = (await q<{ after: Json }>(`SELECT after FROM audit_events WHERE action = 'subscriber.update' AND entity_id = '${moved}'`)) as [{ after: Json }];
      expect(after.duplicates_reevaluated).toContain(later.id);

      const [mine] = await subscriberHistory(branchScope(scoped), moved);
      expect(mine).toMatchObject({ action: "subscriber.update", before: { branch_name: ANOTHER_BRANCH }, after: { branch_name: "Scope A", email } });
      expect(Object.keys(mine!.after!)).not.toContain("duplicates_reevaluated");
      expect(JSON.stringify(mine)).not.toContain("Scope B");
      // An unscoped reader sees the branch it came from.
      const [theirs] = await subscriberHistory(every, moved);
      expect(theirs).toMatchObject({ before: { branch_name: "Scope B" }, after: { branch_name: "Scope A" } });
    });

    it("looks a branch-name filter up among the scope's branches: another branch's name does what no branch's name does", async () => {
      // The work each count does, row for row (the names themselves left out), for one branch and for several.
      const [north] = await q<{ id: number }>(`SELECT id FROM branches WHERE name = 'Northgate'`);
      const work = async (branch_ids: number[], name: string) => {
        const count = subscriberCountSql(branchScope({ role: "staff", branch_ids }), subscriberFiltersSchema.parse({ branch_name: name }));
        const plan = await (await connection()).query<Record<string, string>>(sql`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${count}`);
        return plan.map((row) => Object.values(row)[0]!.replace(/'[^']*'/g, "'…'").replace(/Heap Fetches: \d+/, "Heap Fetches: n")).join("\n");
      };
      for (const branch_ids of [[a], [a, north!.id]]) {
        expect(await work(branch_ids, "Scope B"), JSON.stringify(branch_ids)).toEqual(await work(branch_ids, "No branch is called this"));
      }
      expect((await list(scoped, "?branch_name=Scope%20B")).body.pagination).toMatchObject({ total: 0 });
      expect((await list(scoped, "?branch_name=scope")).body.pagination).toMatchObject({ total: await inScopeCount() });
    });

    it("withdraws a user's finished export files when their scope narrows, not when it widens", async () => {
      const patch = (branch_ids: number[] | null) =>
        call(s.admin, () => userPATCH(apiRequest(`/api/v1/users/${scoped.id}`, { method: "PATCH", json: { branch_ids } }), routeContext({ id: String(scoped.id) })));
      const requested = await postExport(scoped);
      expect(requested.status).toBe(202);
      const [{ id }] = (await q<{ id: string }>(`SELECT id FROM subscriber_exports WHERE user_id = ${scoped.id} AND status = 'in_queue'`)) as [{ id: string }];
      expect(await runExport(id)).toMatchObject({ exportId: id });
      await jobsDone();
      const file = async () => {
        const object = await storage().get(exportKey(id));
        object?.body.destroy();
        return object !== null;
      };
      expect(await file()).toBe(true);
      expect((await patch([a, b])).status).toBe(200);
      const kept = await download(scoped, `/api/v1/exports/${id}/download`);
      expect(kept.status).toBe(200);
      await kept.body?.cancel();
      expect((await patch([a])).status).toBe(200);
      expect(await q(`SELECT id FROM subscriber_exports WHERE id = '${id}'`)).toEqual([]);
      expect(await file()).toBe(false);
      expect((await download(scoped, `/api/v1/exports/${id}/download`)).status).toBe(404);
    });
  });
}
