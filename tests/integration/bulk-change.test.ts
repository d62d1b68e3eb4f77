import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bulkChangeAction } from "@/app/(console)/subscribers/bulk-actions";
import BulkChangeProgressPage from "@/app/(console)/subscribers/bulk/[id]/page";
import { GET as bulkGET } from "@/app/api/v1/subscribers/bulk/[id]/route";
import type { SessionUser } from "@/lib/auth/permissions";
import { connection, sql } from "@/lib/db/sql";
import { readProblem } from "@/lib/i18n/problem";
import { problemsIn } from "@/lib/i18n/problems-in";
import { startJobWorker } from "@/lib/jobs/worker";
import { bulkStatus, requestBulkChange, runBulkChange } from "@/lib/subscribers/bulk";
import { createSubscriber } from "@/lib/subscribers/mutations";
import { subscriberHistory } from "@/lib/subscribers/record";
import { subscriberInputSchema } from "@/lib/subscribers/schema";
import { actAs } from "../helpers/db";
import { closeExportSuite, openExportSuite, type ExportSuite } from "../helpers/export-test";
import { testDbKinds } from "../helpers/db";
import { branchScope } from "@/lib/auth/scope";
import { apiRequest, routeContext } from "../helpers/http";
import { renderPage } from "../helpers/render-page";

const EVERY = branchScope({ role: "admin", branch_ids: null });

// Bulk changes: a selection or every subscriber matching the list's filters;
// status and mandatory for anyone signed in, deletion for administrators; at once up to
// BULK_INLINE_MAX rows, else a job on the export's queue in batches that resume where a killed
// attempt stopped (never changing a row twice); one audit event each; the trigger-kept counts
// exact throughout. The 1M-row measurement is `npm run bench:bulk` (bench/README.md).

const ROWS = 60;

for (const kind of testDbKinds()) {
  describe(`bulk changes on ${kind}`, () => {
    let s: ExportSuite;
    const q = async <T,>(text: string) => (await connection()).query<T>(text);
    const countsExact = async () => {
      const [row] = await q<{ kept: number; actual: number; bad: number }>(`SELECT
        (SELECT coalesce(sum(total), 0)::int FROM subscriber_status_counts) AS kept,
        (SELECT count(*)::int FROM subscribers) AS actual,
        (SELECT count(*)::int FROM (SELECT subscription_status, is_duplicate, is_mandatory, count(*) AS n FROM subscribers GROUP BY 1, 2, 3) a
           FULL JOIN subscriber_status_counts t USING (subscription_status, is_duplicate, is_mandatory)
          WHERE coalesce(a.n, 0) <> coalesce(t.total, 0)) AS bad`);
      expect(row).toMatchObject({ bad: 0 });
      expect(row!.kept).toBe(row!.actual);
    };

    /** The creation rule's flag for every subscriber: an earlier one with the same email (case ignored) or mobile. */
    const RULE = `(EXISTS (SELECT 1 FROM subscribers e WHERE lower(e.email) = lower(t.email) AND e.id < t.id)
      OR EXISTS (SELECT 1 FROM subscribers e WHERE e.mobile = t.mobile AND e.id < t.id))`;
    const flagsExact = async () => expect(await q(`SELECT t.id FROM subscribers t WHERE t.is_duplicate <> ${RULE}`)).toEqual([]);
    /**
     * `n` subscribers named `${tag}Orig`, then `n` later ones named `${tag}Copy` that match them
     * (by email, case changed, or by mobile, in turn), and one more that matches both an original
     * and subscriber 2, which stays: every flag is the rule's. Returns the copies' ids.
     */
    const seedPairs = async (tag: string, n: number, base: number) => {
      await q(`UPDATE subscribers t SET is_duplicate = ${RULE} WHERE is_duplicate <> ${RULE}`);
      await q(`INSERT INTO subscribers (first_name, last_name, email, mobile, subscription_status)
        SELECT 'O' || g, '${tag}Orig', '${tag.toLowerCase()}' || g || '@pairs.test', '+1555' || (${base} + g), 'active' FROM generate_series(1, ${n}) g`);
      await q(`INSERT INTO subscribers (first_name, last_name, email, mobile, subscription_status, is_duplicate)
        SELECT 'C' || g, '${tag}Copy',
               CASE WHEN g % 2 = 0 THEN upper('${tag.toLowerCase()}' || g || '@pairs.test') ELSE '${tag.toLowerCase()}-copy' || g || '@pairs.test' END,
               CASE WHEN g % 2 = 0 THEN '+1666' || (${base} + g) ELSE '+1555' || (${base} + g) END, 'active', true
          FROM generate_series(1, ${n}) g`);
      await q(`INSERT INTO subscribers (first_name, last_name, email, mobile, subscription_status, is_duplicate)
        SELECT 'Both', '${tag}Both', '${tag.toLowerCase()}1@pairs.test', mobile, 'active', true FROM subscribers WHERE id = 2`);
      await flagsExact();
      return (await q<{ id: number }>(`SELECT id FROM subscribers WHERE last_name = '${tag}Copy' ORDER BY id`)).map((r) => r.id);
    };
    const waitFor = async (id: string, user: SessionUser, state: "completed" | "failed") => {
      const end = Date.now() + 45_000;
      let status = await bulkStatus(user, id);
      while (status.status !== state && Date.now() < end) {
        await new Promise((r) => setTimeout(r, 300));
        status = await bulkStatus(user, id);
      }
      expect(status.status).toBe(state);
      return status;
    };

    beforeAll(async () => {
      s = await openExportSuite(kind, ROWS);
      process.env.BULK_INLINE_MAX = "10";
      process.env.BULK_BATCH_SIZE = "7";
    });
    afterAll(async () => {
      delete process.env.BULK_INLINE_MAX;
      delete process.env.BULK_BATCH_SIZE;
      await closeExportSuite(s);
    });
    beforeEach(() => actAs(s.staff));

    it("changes a selection at once, audited as one event that the records' histories show", async () => {
      await q(`UPDATE subscribers SET subscription_status = 'active' WHERE id IN (1, 2, 3)`);
      const result = await bulkChangeAction({ target: { ids: [1, 2, 3] }, change: { subscription_status: "cancelled" } });
      expect(result).toMatchObject({ ok: true, data: { kind: "done", count: 3 } });
      const rows = await q<{ id: number; subscription_status: string }>(`SELECT id, subscription_status::text FROM subscribers WHERE id IN (1, 2, 3) ORDER BY id`);
      expect(rows.map((r) => r.subscription_status)).toEqual(["cancelled", "cancelled", "cancelled"]);
      const events = await s.database.prisma.auditEvent.findMany({ where: { action: "subscriber.bulk_change" } });
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ actor_id: s.staff.id, after: { ids: [1, 2, 3], change: { subscription_status: "cancelled" }, count: 3 } });
      expect((await subscriberHistory(EVERY, 2)).map((h) => h.action)).toContain("subscriber.bulk_change");
      await countsExact();
    });

    it("records in a selection's event the ids it changed, once each: not the ones sent twice, never existed or already so", async () => {
      const [{ next }] = (await q<{ next: number }>(`SELECT (last_value + CASE WHEN is_called THEN 1 ELSE 0 END)::int AS next FROM subscribers_id_seq`)) as [{ next: number }];
      await q(`UPDATE subscribers SET is_mandatory = (id = 8) WHERE id IN (6, 7, 8)`);
      const result = await bulkChangeAction({ target: { ids: [7, 6, 7, 8, next] }, change: { is_mandatory: true } });
      expect(result).toMatchObject({ ok: true, data: { kind: "done", count: 3 } });
      const [event] = await s.database.prisma.auditEvent.findMany({ where: { action: "subscriber.bulk_change" }, orderBy: { id: "desc" }, take: 1 });
      expect(event!.after).toEqual({ ids: [6, 7], change: { is_mandatory: true }, count: 3 });
      expect((await subscriberHistory(EVERY, 8)).map((h) => h.action)).not.toContain("subscriber.bulk_change");
      // The id that did not exist then is the next subscriber's: the old change is not in its history.
      const created = await createSubscriber(EVERY, 
        subscriberInputSchema.parse({ first_name: "Nia", last_name: "Later", email: "nia.later@bulk.test", mobile: "+44 7400 555123", subscription_status: "pending", is_mandatory: false }),
        s.staff,
      );
      expect(created.id).toBe(next);
      expect((await subscriberHistory(EVERY, next)).map((h) => h.action)).toEqual(["subscriber.create"]);
      // A selection larger than BULK_INLINE_MAX (10 here) still runs at once: it is never a job.
      const twelve = Array.from({ length: 12 }, (_, i) => 10 + i);
      expect(await requestBulkChange(EVERY, s.staff, { ids: twelve }, { is_mandatory: true })).toMatchObject({ kind: "done", count: 12 });
      await countsExact();
    });

    it("links a change by filters from the histories of the rows it changed, at once and as a job, once each", async () => {
      await startJobWorker();
      await q(`UPDATE subscribers SET subscription_status = 'pending', is_mandatory = false WHERE id BETWEEN 40 AND 54`);
      await q(`UPDATE subscribers SET last_name = CASE WHEN id <= 42 THEN 'HistoryFew' ELSE 'HistoryMany' END WHERE id BETWEEN 40 AND 54`);
      // 41 already has the value: the change goes through it without changing it.
      await q(`UPDATE subscribers SET subscription_status = 'expired' WHERE id = 41`);
      const linked = async (id: number) =>
        (await subscriberHistory(EVERY, id)).filter((h) => h.action === "subscriber.bulk_change").map((h) => ({ entity: h.entity, entity_id: h.entity_id, after: h.after }));
      const atOnce = await requestBulkChange(EVERY, s.staff, { filters: { last_name: "HistoryFew" } }, { subscription_status: "expired" });
      expect(atOnce).toMatchObject({ kind: "done", count: 3 });
      const job = await requestBulkChange(EVERY, s.staff, { filters: { last_name: "HistoryMany" } }, { subscription_status: "expired" });
      expect(job).toMatchObject({ kind: "queued", total: 12 });
      await waitFor(job.id, s.staff, "completed");
      for (const [id, bulk] of [[40, atOnce.id], [42, atOnce.id], [43, job.id], [54, job.id]] as const) {
        expect(await linked(id), `${id}`).toEqual([{ entity: "bulk_change", entity_id: bulk, after: { change: { subscription_status: "expired" } } }]);
      }
      expect(await linked(41)).toEqual([]);
      // A selection is linked by its event's ids, once, though its rows are recorded too.
      const selection = await requestBulkChange(EVERY, s.staff, { ids: [40, 43] }, { is_mandatory: true });
      expect((await linked(40)).map((h) => h.entity_id)).toEqual(expect.arrayContaining([selection.id, atOnce.id]));
      expect(await linked(40)).toHaveLength(2);
    });

    it("refuses deletion to staff, whoever calls, and bad filters by name", async () => {
      // Every change has a row (its page, its undo): a refused one leaves none.
      const changes = await s.database.prisma.bulkChange.count();
      expect(await bulkChangeAction({ target: { ids: [4] }, change: { delete: true } })).toMatchObject({ ok: false, formError: expect.stringMatching(/administrators/) });
      await expect(requestBulkChange(EVERY, s.staff, { ids: [4] }, { delete: true })).rejects.toMatchObject({ status: 403 });
      expect(await q(`SELECT id FROM subscribers WHERE id = 4`)).toHaveLength(1);
      await expect(requestBulkChange(EVERY, s.staff, { filters: { emial: "x" } }, { is_mandatory: true })).rejects.toMatchObject({ status: 400 });
      await expect(requestBulkChange(EVERY, s.staff, { filters: { created_from: "0000-01-01" } }, { is_mandatory: true })).rejects.toMatchObject({ status: 400 });
      await expect(requestBulkChange(EVERY, s.staff, { filters: { first_name: "nobody-at-all" } }, { is_mandatory: true })).rejects.toMatchObject({ code: "nothing_matches" });
      // Names Object.prototype has ("__proto__" as JSON sends it: an own key) are no filters either:
      // taken for known names and then dropped, they made the change reach every subscriber.
      const before = await q<{ n: number }>(`SELECT count(*)::int AS n FROM subscribers WHERE is_mandatory`);
      for (const name of ["constructor", "toString", "valueOf", "hasOwnProperty", "__proto__"]) {
        for (const value of ['"x"', '{"is_mandatory": "false"}']) {
          const filters = JSON.parse(`{${JSON.stringify(name)}: ${value}}`) as Record<string, string>;
          await expect(requestBulkChange(EVERY, s.staff, { filters }, { is_mandatory: true }), name).rejects.toMatchObject({ status: 400, message: expect.stringContaining(name) });
          const answer = await bulkChangeAction({ target: { filters }, change: { is_mandatory: true } });
          expect(answer, name).toMatchObject({ ok: false });
          expect(Object.keys((answer as { fieldErrors: object }).fieldErrors).join(), name).toContain(name);
        }
      }
      expect(await q<{ n: number }>(`SELECT count(*)::int AS n FROM subscribers WHERE is_mandatory`)).toEqual(before);
      expect(await s.database.prisma.bulkChange.count()).toBe(changes);
    });

    it("lets an admin delete a selection; later duplicates of the deleted are decided again", async () => {
      // Subscriber 30 takes 5's email: a duplicate of 5. Deleting 5 frees it.
      await q(`UPDATE subscribers SET email = (SELECT email FROM subscribers WHERE id = 5), is_duplicate = true WHERE id = 30`);
      const result = await requestBulkChange(EVERY, s.admin, { ids: [5] }, { delete: true });
      expect(result).toMatchObject({ kind: "done", count: 1 });
      const [after] = await q<{ is_duplicate: boolean }>(`SELECT is_duplicate FROM subscribers WHERE id = 30`);
      expect(after!.is_duplicate).toBe(false);
      await countsExact();
    });

    it("runs a large change as a job in batches: every matching row once, one audit event, counts exact", async () => {
      await startJobWorker();
      const [{ n }] = (await q<{ n: number }>(`SELECT count(*)::int AS n FROM subscribers WHERE is_mandatory = false`)) as [{ n: number }];
      const result = await requestBulkChange(EVERY, s.staff, { filters: { is_mandatory: "false" } }, { is_mandatory: true });
      expect(result).toMatchObject({ kind: "queued", total: n });
      const id = (result as { id: string }).id;
      const end = Date.now() + 45_000;
      let status = await bulkStatus(s.staff, id);
      while (status.status !== "completed" && Date.now() < end) {
        await new Promise((r) => setTimeout(r, 300));
        status = await bulkStatus(s.staff, id);
      }
      expect(status).toMatchObject({ status: "completed", total_rows: n, processed_rows: n });
      expect(await q(`SELECT id FROM subscribers WHERE is_mandatory = false`)).toEqual([]);
      const events = await s.database.prisma.auditEvent.findMany({ where: { action: "subscriber.bulk_change", entity_id: id } });
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ after: { filters: { is_mandatory: "false" }, count: n } });
      // Another user's bulk change is the same 404 as none; an administrator reads anyone's.
      await expect(bulkStatus({ id: s.admin.id, role: "staff" }, id)).rejects.toMatchObject({ status: 404 });
      await expect(bulkStatus(s.admin, id)).resolves.toMatchObject({ id, status: "completed" });
      await countsExact();
    });

    it("resumes a job after the last batch done when an attempt dies mid-way: no row is changed twice", async () => {
      const conn = await connection();
      const id = "BBBBBBBBBBBBBBBBBBBBBB";
      const total = (await q<{ n: number }>(`SELECT count(*)::int AS n FROM subscribers`))[0]!.n;
      await conn.query(sql`INSERT INTO bulk_changes (id, user_id, target, change, total_rows)
        VALUES (${id}, ${s.staff.id}, ${JSON.stringify({ filters: {} })}::jsonb, ${JSON.stringify({ subscription_status: "expired" })}::jsonb, ${total})`);
      // An attempt killed after two batches (the third never starts).
      const controller = new AbortController();
      let batches = 0;
      await expect(
        runBulkChange(id, controller.signal, () => {
          if (++batches === 2) controller.abort(new Error("killed"));
        }),
      ).rejects.toThrow("killed");
      const [mid] = await conn.query<{ last_id: number; processed_rows: number; status: string }>(sql`SELECT last_id, processed_rows, status::text FROM bulk_changes WHERE id = ${id}`);
      expect(mid!.status).toBe("running");
      expect(mid!.processed_rows).toBe(14); // two batches of 7
      expect(mid!.processed_rows).toBeLessThan(total);
      // The retry goes on after the last batch done.
      expect(await runBulkChange(id)).toEqual({ processed: total });
      expect(await q(`SELECT id FROM subscribers WHERE subscription_status <> 'expired'`)).toEqual([]);
      await countsExact();
    });

    it("deletes as a job: batches that only delete, then every subscriber left has the rule's duplicate flag", async () => {
      await startJobWorker();
      const copies = await seedPairs("Del", 12, 1000);
      const result = await requestBulkChange(EVERY, s.admin, { filters: { last_name: "DelOrig" } }, { delete: true });
      expect(result).toMatchObject({ kind: "queued", total: 12 });
      const id = (result as { id: string }).id;
      expect(await waitFor(id, s.admin, "completed")).toMatchObject({ processed_rows: 12 });
      expect(await q(`SELECT id FROM subscribers WHERE last_name = 'DelOrig'`)).toEqual([]);
      expect(await q(`SELECT id FROM subscribers WHERE id = ANY('{${copies.join(",")}}'::int[]) AND is_duplicate`)).toEqual([]);
      expect(await q(`SELECT is_duplicate FROM subscribers WHERE last_name = 'DelBoth'`)).toEqual([{ is_duplicate: true }]);
      await flagsExact();
      await countsExact();
      const events = await s.database.prisma.auditEvent.findMany({ where: { action: "subscriber.bulk_change", entity_id: id } });
      expect(events.map((e) => e.after)).toEqual([{ filters: { last_name: "DelOrig" }, change: { delete: true }, count: 12 }]);
    });

    it("resumes a deletion killed mid-way, then decides every flag again, those of the earlier attempt included", async () => {
      // Seven originals and their copies, then nine more originals after the copies: the first
      // attempt deletes the seven, the second the nine, whose first id is past the copies.
      const copies = await seedPairs("Res", 7, 2000);
      await q(`INSERT INTO subscribers (first_name, last_name, email, mobile, subscription_status)
        SELECT 'P' || g, 'ResOrig', 'res-late' || g || '@pairs.test', '+1888' || (2000 + g), 'active' FROM generate_series(1, 9) g`);
      const id = "DDDDDDDDDDDDDDDDDDDDDD";
      await q(`INSERT INTO bulk_changes (id, user_id, target, change, total_rows)
        VALUES ('${id}', ${s.admin.id}, '{"filters": {"last_name": "ResOrig"}}', '{"delete": true}', 16)`);
      const controller = new AbortController();
      await expect(runBulkChange(id, controller.signal, () => controller.abort(new Error("killed")))).rejects.toThrow("killed");
      // One batch of 7 deleted; their copies are decided after the last batch, not yet.
      expect(await q(`SELECT count(*)::int AS n FROM subscribers WHERE last_name = 'ResOrig'`)).toEqual([{ n: 9 }]);
      expect(await q(`SELECT count(*)::int AS n FROM subscribers WHERE id = ANY('{${copies.join(",")}}'::int[]) AND is_duplicate`)).toEqual([{ n: 7 }]);
      expect(await runBulkChange(id)).toEqual({ processed: 16 });
      expect(await q(`SELECT id FROM subscribers WHERE id = ANY('{${copies.join(",")}}'::int[]) AND is_duplicate`)).toEqual([]);
      await flagsExact();
      await countsExact();
    });

    it("runs a deletion by filters of more than a selection's 100 rows as a job, whatever BULK_INLINE_MAX", async () => {
      await q(`INSERT INTO subscribers (first_name, last_name, email, mobile, subscription_status)
        SELECT 'K' || g, 'CapOrig', 'cap' || g || '@pairs.test', '+1777' || (3000 + g), 'active' FROM generate_series(1, 110) g`);
      process.env.BULK_INLINE_MAX = "2000";
      try {
        expect(await requestBulkChange(EVERY, s.admin, { filters: { last_name: "CapOrig" } }, { subscription_status: "expired" })).toMatchObject({ kind: "done", count: 110 });
        const result = await requestBulkChange(EVERY, s.admin, { filters: { last_name: "CapOrig" } }, { delete: true });
        expect(result).toMatchObject({ kind: "queued", total: 110 });
        await waitFor((result as { id: string }).id, s.admin, "completed");
      } finally {
        process.env.BULK_INLINE_MAX = "10";
      }
      expect(await q(`SELECT id FROM subscribers WHERE last_name = 'CapOrig'`)).toEqual([]);
      await countsExact();
    });

    it("audits a job that fails after its last retry, with the rows its batches changed, in the transaction that marks it failed", async () => {
      await startJobWorker();
      // Every attempt fails at the same row, after the batches before it are done.
      const [{ stop }] = (await q<{ stop: number }>(`SELECT id AS stop FROM subscribers ORDER BY id OFFSET 30 LIMIT 1`)) as [{ stop: number }];
      await q(`UPDATE subscribers SET subscription_status = 'pending' WHERE id = ${stop}`);
      await q(`CREATE FUNCTION fail_bulk_test() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk on fire'; END $$`);
      await q(`CREATE TRIGGER fail_bulk_test BEFORE UPDATE ON subscribers FOR EACH ROW WHEN (OLD.id = ${stop}) EXECUTE FUNCTION fail_bulk_test()`);
      process.env.JOB_RETRY_LIMIT = "1";
      try {
        const result = await requestBulkChange(EVERY, s.staff, { filters: { sort: "id" } }, { subscription_status: "cancelled" });
        const id = (result as { id: string }).id;
        const end = Date.now() + 45_000;
        let status = await bulkStatus(s.staff, id);
        while (status.status !== "failed" && Date.now() < end) {
          await new Promise((r) => setTimeout(r, 300));
          status = await bulkStatus(s.staff, id);
        }
        expect(status.status).toBe("failed");
        // Why, kept as a problem key whose value is the worker's own error text; said in each reader's words.
        expect(readProblem(status.error!)).toEqual({ key: "bulk.stoppedAfter", values: { attempts: 2, reason: expect.stringMatching(/disk on fire/) } });
        const said = (body: unknown) => (body as { error: string }).error;
        actAs(s.staff);
        const english = said(await (await bulkGET(apiRequest(`/api/v1/subscribers/bulk/${id}`), routeContext({ id }))).json());
        expect(english).toMatch(/^The bulk change stopped after 2 attempts \(.*disk on fire.*\)\. The batches done are kept\.$/s);
        const french = said(await (await bulkGET(apiRequest(`/api/v1/subscribers/bulk/${id}`, { headers: { "accept-language": "fr" } }), routeContext({ id }))).json());
        expect(french).toMatch(/^La modification groupée s’est arrêtée après 2 tentatives \(.*disk on fire.*\)\. Les lots déjà traités sont conservés\.$/s);
        expect(french).toBe(problemsIn("fr")(status.error!));
        // The page says it in words (the reader's: English here), never the key.
        const html = await renderPage(() => BulkChangeProgressPage({ params: Promise.resolve({ id }) }), `/subscribers/bulk/${id}`);
        expect(html).toContain("The bulk change stopped after 2 attempts (");
        expect(html).not.toContain("bulk.stoppedAfter");
        // The failing row is the 31st: four batches of 7 were done and kept, the fifth never is.
        const changed = 28;
        expect(status.processed_rows).toBe(changed);
        const cancelled = await q<{ id: number }>(`SELECT id FROM subscribers WHERE subscription_status = 'cancelled' ORDER BY id`);
        expect(cancelled).toEqual(await q(`SELECT id FROM subscribers ORDER BY id LIMIT ${changed}`));
        const events = await s.database.prisma.auditEvent.findMany({ where: { action: "subscriber.bulk_change", entity_id: id } });
        expect(events).toHaveLength(1);
        expect(events[0]).toMatchObject({
          actor_id: s.staff.id,
          // The audit is told in English, as an import's failure is.
          after: { filters: {}, change: { subscription_status: "cancelled" }, count: changed, status: "failed", error: english },
        });
      } finally {
        delete process.env.JOB_RETRY_LIMIT;
        await q(`DROP TRIGGER fail_bulk_test ON subscribers`);
        await q(`DROP FUNCTION fail_bulk_test()`);
      }
      await countsExact();
    });

    it("decides the flags again when a deletion job fails part-way, and says so in its event", async () => {
      const copies = await seedPairs("Fail", 14, 4000);
      const [{ stop }] = (await q<{ stop: number }>(`SELECT id AS stop FROM subscribers WHERE last_name = 'FailOrig' ORDER BY id OFFSET 9 LIMIT 1`)) as [{ stop: number }];
      await q(`CREATE FUNCTION fail_bulk_test() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk on fire'; END $$`);
      await q(`CREATE TRIGGER fail_bulk_test BEFORE DELETE ON subscribers FOR EACH ROW WHEN (OLD.id = ${stop}) EXECUTE FUNCTION fail_bulk_test()`);
      process.env.JOB_RETRY_LIMIT = "1";
      try {
        const result = await requestBulkChange(EVERY, s.admin, { filters: { last_name: "FailOrig" } }, { delete: true });
        const id = (result as { id: string }).id;
        expect(await waitFor(id, s.admin, "failed")).toMatchObject({ processed_rows: 7 });
        // The first batch's seven are gone; the copies that matched only them are no longer duplicates.
        expect(await q(`SELECT count(*)::int AS n FROM subscribers WHERE last_name = 'FailOrig'`)).toEqual([{ n: 7 }]);
        expect((await q<{ n: number }>(`SELECT count(*)::int AS n FROM subscribers WHERE id = ANY('{${copies.join(",")}}'::int[]) AND NOT is_duplicate`))[0]!.n).toBe(7);
        await flagsExact();
        const [event] = await s.database.prisma.auditEvent.findMany({ where: { action: "subscriber.bulk_change", entity_id: id } });
        expect(event!.after).toMatchObject({ filters: { last_name: "FailOrig" }, change: { delete: true }, count: 7, status: "failed", duplicates_decided_again: true });
      } finally {
        delete process.env.JOB_RETRY_LIMIT;
        await q(`DROP TRIGGER fail_bulk_test ON subscribers`);
        await q(`DROP FUNCTION fail_bulk_test()`);
      }
      await countsExact();
    });
  });
}
