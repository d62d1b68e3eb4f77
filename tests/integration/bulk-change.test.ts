import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bulkChangeAction } from "@/app/(console)/subscribers/bulk-actions";
import { connection, sql } from "@/lib/db/sql";
import { startExportWorker } from "@/lib/export/worker";
import { bulkStatus, requestBulkChange, runBulkChange } from "@/lib/subscribers/bulk";
import { subscriberHistory } from "@/lib/subscribers/record";
import { actAs } from "../helpers/db";
import { closeExportSuite, openExportSuite, type ExportSuite } from "../helpers/export-test";
import { testDbKinds } from "../helpers/db";

// Bulk changes (issue 16, point 3): a selection or every subscriber matching the list's filters;
// status and mandatory for anyone signed in, deletion for administrators; at once up to
// BULK_INLINE_MAX rows, else a job on the export's queue in batches that resume where a killed
// attempt stopped (never changing a row twice); one audit event each; the trigger-kept counts
// exact throughout. The 1M-row measurement is `npm run bench:bulk` (README).

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
      const result = await bulkChangeAction({ target: { ids: [1, 2, 3] }, change: { subscription_status: "cancelled" } });
      expect(result).toMatchObject({ ok: true, data: { kind: "done", count: 3 } });
      const rows = await q<{ id: number; subscription_status: string }>(`SELECT id, subscription_status::text FROM subscribers WHERE id IN (1, 2, 3) ORDER BY id`);
      expect(rows.map((r) => r.subscription_status)).toEqual(["cancelled", "cancelled", "cancelled"]);
      const events = await s.database.prisma.auditEvent.findMany({ where: { action: "subscriber.bulk_change" } });
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ actor_id: s.staff.id, after: { ids: [1, 2, 3], change: { subscription_status: "cancelled" }, count: 3 } });
      expect((await subscriberHistory(2)).map((h) => h.action)).toContain("subscriber.bulk_change");
      await countsExact();
    });

    it("refuses deletion to staff, whoever calls, and bad filters by name", async () => {
      expect(await bulkChangeAction({ target: { ids: [4] }, change: { delete: true } })).toMatchObject({ ok: false, formError: expect.stringMatching(/administrators/) });
      await expect(requestBulkChange(s.staff, { ids: [4] }, { delete: true })).rejects.toMatchObject({ status: 403 });
      expect(await q(`SELECT id FROM subscribers WHERE id = 4`)).toHaveLength(1);
      await expect(requestBulkChange(s.staff, { filters: { emial: "x" } }, { is_mandatory: true })).rejects.toMatchObject({ status: 400 });
      await expect(requestBulkChange(s.staff, { filters: { created_from: "0000-01-01" } }, { is_mandatory: true })).rejects.toMatchObject({ status: 400 });
      await expect(requestBulkChange(s.staff, { filters: { first_name: "nobody-at-all" } }, { is_mandatory: true })).rejects.toMatchObject({ code: "nothing_matches" });
    });

    it("lets an admin delete a selection; later duplicates of the deleted are decided again", async () => {
      // Subscriber 30 takes 5's email: a duplicate of 5. Deleting 5 frees it.
      await q(`UPDATE subscribers SET email = (SELECT email FROM subscribers WHERE id = 5), is_duplicate = true WHERE id = 30`);
      const result = await requestBulkChange(s.admin, { ids: [5] }, { delete: true });
      expect(result).toEqual({ kind: "done", count: 1 });
      const [after] = await q<{ is_duplicate: boolean }>(`SELECT is_duplicate FROM subscribers WHERE id = 30`);
      expect(after!.is_duplicate).toBe(false);
      await countsExact();
    });

    it("runs a large change as a job in batches: every matching row once, one audit event, counts exact", async () => {
      await startExportWorker();
      const [{ n }] = (await q<{ n: number }>(`SELECT count(*)::int AS n FROM subscribers WHERE is_mandatory = false`)) as [{ n: number }];
      const result = await requestBulkChange(s.staff, { filters: { is_mandatory: "false" } }, { is_mandatory: true });
      expect(result).toMatchObject({ kind: "queued", total: n });
      const id = (result as { id: string }).id;
      const end = Date.now() + 45_000;
      let status = await bulkStatus(s.staff.id, id);
      while (status.status !== "completed" && Date.now() < end) {
        await new Promise((r) => setTimeout(r, 300));
        status = await bulkStatus(s.staff.id, id);
      }
      expect(status).toMatchObject({ status: "completed", total_rows: n, processed_rows: n });
      expect(await q(`SELECT id FROM subscribers WHERE is_mandatory = false`)).toEqual([]);
      const events = await s.database.prisma.auditEvent.findMany({ where: { action: "subscriber.bulk_change", entity_id: id } });
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ after: { filters: { is_mandatory: "false" }, count: n } });
      // Another user's bulk change is the same 404 as none.
      await expect(bulkStatus(s.admin.id, id)).rejects.toMatchObject({ status: 404 });
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
  });
}
