import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as retentionGET } from "@/app/api/v1/people/retention/route";
import { connection } from "@/lib/db/sql";
import { retentionDryRun, runRetention } from "@/lib/people/retention";
import { actAs, testDbKinds } from "../helpers/db";
import { closeExportSuite, openExportSuite, type ExportSuite } from "../helpers/export-test";
import { apiRequest } from "../helpers/http";

// Retention: off while RETENTION_ERASE_AFTER_DAYS is unset; the dry run counts per branch what a
// run would erase (travel date that many days past, unchanged RETENTION_UNCHANGED_DAYS); the first
// run only reports it in the audit log; the next erases by the erasure path (audit values too).

const NOW = new Date("2027-06-01T12:00:00Z");

for (const kind of testDbKinds()) {
  describe(`retention on ${kind}`, () => {
    let s: ExportSuite;
    const q = async <T,>(text: string) => (await connection()).query<T>(text);

    beforeAll(async () => {
      s = await openExportSuite(kind, 12);
      // Travel dates: four long past and unchanged (two of branch 1), one long past but changed lately, the rest to come.
      await q(`UPDATE subscribers SET travel_date = NULL, updated_at = NULL, created_at = '2027-01-01T00:00:00Z'`);
      await q(`UPDATE subscribers SET travel_date = '2027-01-10', branch_id = CASE WHEN id <= 2 THEN 1 ELSE 2 END WHERE id <= 4`);
      await q(`UPDATE subscribers SET travel_date = '2027-01-10', updated_at = '2027-05-30T00:00:00Z' WHERE id = 5`);
      await q(`UPDATE subscribers SET travel_date = '2027-09-01' WHERE id BETWEEN 6 AND 8`);
      await q(`INSERT INTO audit_events (action, entity, entity_id, after) VALUES ('subscriber.create', 'subscriber', '1', '{"first_name": "Retained", "email": "retained@example.com"}')`);
    });
    afterAll(async () => {
      delete process.env.RETENTION_ERASE_AFTER_DAYS;
      await closeExportSuite(s);
    });

    it("is off by default, and its dry run counts per branch without writing", async () => {
      expect(await runRetention(NOW)).toEqual({ subscribers: 0, exports: 0, batches: 0 });
      actAs(s.admin);
      const off = await (await retentionGET(apiRequest("/api/v1/people/retention"), {})).json();
      expect(off).toMatchObject({ enabled: false, erase_after_days: null, total: 0, branches: [] });
      const tried = await retentionDryRun({ erase_after_days: 90, unchanged_days: 30 }, NOW);
      expect(tried.total).toBe(4);
      expect(tried.branches.map((b) => [b.branch_id, b.count]).sort()).toEqual([[1, 2], [2, 2]]);
      expect(tried.branches.every((b) => typeof b.branch_name === "string")).toBe(true);
      actAs(s.staff);
      expect((await retentionGET(apiRequest("/api/v1/people/retention"), {})).status).toBe(403);
      actAs(s.admin);
      expect((await retentionGET(apiRequest("/api/v1/people/retention?erase_after_days=0"), {})).status).toBe(400);
      expect(await q(`SELECT 1 FROM audit_events WHERE action = 'retention.erase'`)).toHaveLength(0);
    });

    it("first reports, then erases in batches by the erasure path", async () => {
      process.env.RETENTION_ERASE_AFTER_DAYS = "90";
      actAs(s.admin);
      expect(await (await retentionGET(apiRequest("/api/v1/people/retention"), {})).json()).toMatchObject({ enabled: true, erase_after_days: 90, unchanged_days: 30 });
      const first = await runRetention(NOW);
      expect(first).toMatchObject({ subscribers: 0, dry_run: { total: 4 } });
      expect(await q(`SELECT count(*)::int AS n FROM subscribers`)).toEqual([{ n: 12 }]);
      const second = await runRetention(NOW);
      expect(second).toMatchObject({ subscribers: 4, batches: 1 });
      expect((await q<{ id: number }>(`SELECT id FROM subscribers ORDER BY id`)).map((r) => r.id)).toEqual([5, 6, 7, 8, 9, 10, 11, 12]);
      expect(await q(`SELECT id FROM subscriber_trash`)).toEqual([]);
      const [event] = await q<{ after: unknown }>(`SELECT after FROM audit_events WHERE entity = 'subscriber' AND entity_id = '1'`);
      expect(JSON.stringify(event!.after)).not.toMatch(/Retained|retained@/);
      const runs = await q<{ after: { dry_run?: boolean; subscribers: number } }>(`SELECT after FROM audit_events WHERE action = 'retention.erase' ORDER BY id`);
      expect(runs.map((r) => [r.after.dry_run ?? false, r.after.subscribers])).toEqual([[true, 4], [false, 4]]);
      expect(await runRetention(NOW)).toMatchObject({ subscribers: 0 });
    });
  });
}
