import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as bulkPOST } from "@/app/api/v1/subscribers/bulk/route";
import { GET as bulkGET } from "@/app/api/v1/subscribers/bulk/[id]/route";
import { POST as undoPOST } from "@/app/api/v1/subscribers/bulk/[id]/undo/route";
import type { SessionUser } from "@/lib/auth/permissions";
import { EVERY_BRANCH } from "@/lib/auth/scope";
import { connection } from "@/lib/db/sql";
import { requestUndo, runBulkChange } from "@/lib/subscribers/bulk";
import { actAs, testDbKinds } from "../helpers/db";
import { closeExportSuite, openExportSuite, type ExportSuite } from "../helpers/export-test";
import { apiRequest, routeContext } from "../helpers/http";

// Bulk changes through the API and their undo (docs/API.md): the page's code path and rules; the
// values before recorded in each batch's transaction; an undo puts back only rows nobody changed
// since (the others counted in skipped_rows), is itself a bulk change (undo_of, audited, a job
// when large), once; a deletion's undo restores its rows from the trash (administrators only).

type Bulk = { id: string; status: string; change: Record<string, unknown>; matched_rows: number; processed_rows: number; changed_rows: number; skipped_rows: number; undo_of: string | null; undone_by: { id: number; name: string } | null; undone_at: string | null };

const RULE = `(EXISTS (SELECT 1 FROM subscribers e WHERE lower(e.email) = lower(t.email) AND e.id < t.id)
  OR EXISTS (SELECT 1 FROM subscribers e WHERE e.mobile = t.mobile AND e.id < t.id))`;

for (const kind of testDbKinds()) {
  describe(`bulk changes through the API, and undo, on ${kind}`, () => {
    let s: ExportSuite;
    const q = async <T,>(text: string) => (await connection()).query<T>(text);
    const post = async (user: SessionUser, body: unknown) => {
      actAs(user);
      const response = await bulkPOST(apiRequest("/api/v1/subscribers/bulk", { method: "POST", json: body }), {} as never);
      return { status: response.status, body: (await response.json()) as Bulk & { error?: { code: string; message: string } } };
    };
    const undo = async (user: SessionUser, id: string) => {
      actAs(user);
      const response = await undoPOST(apiRequest(`/api/v1/subscribers/bulk/${id}/undo`, { method: "POST" }), routeContext({ id }));
      return { status: response.status, body: (await response.json()) as Bulk & { error?: { code: string; message: string } } };
    };
    const read = async (user: SessionUser, id: string) => {
      actAs(user);
      const response = await bulkGET(apiRequest(`/api/v1/subscribers/bulk/${id}`), routeContext({ id }));
      return { status: response.status, body: (await response.json()) as Bulk };
    };
    const waitFor = async (user: SessionUser, id: string) => {
      for (let run = 0; run < 20; run++) {
        const { body } = await read(user, id);
        if (body.status === "completed" || body.status === "failed") return body;
        await runBulkChange(id);
      }
      throw new Error("the bulk change did not finish");
    };
    let base = 0;
    /** `n` pending, not mandatory subscribers named `tag`, matching nobody. */
    const tagged = (tag: string, n: number) => {
      base += 1000;
      return q(`INSERT INTO subscribers (first_name, last_name, email, mobile, subscription_status, is_mandatory)
        SELECT 'U' || g, '${tag}', '${tag.toLowerCase()}' || g || '@undo.test', '+1444' || lpad((${base} + g)::text, 7, '0'), 'pending', false
          FROM generate_series(1, ${n}) g`);
    };
    const valuesOf = async (tag: string) => q<{ id: number; subscription_status: string; is_mandatory: boolean }>(
      `SELECT id, subscription_status::text AS subscription_status, is_mandatory FROM subscribers WHERE last_name = '${tag}' ORDER BY id`);
    const countsExact = async () => {
      const [row] = await q<{ kept: number; actual: number }>(`SELECT (SELECT coalesce(sum(total), 0)::int FROM subscriber_status_counts) AS kept, (SELECT count(*)::int FROM subscribers) AS actual`);
      expect(row!.kept).toBe(row!.actual);
    };
    const flagsExact = async () => expect(await q(`SELECT t.id FROM subscribers t WHERE t.is_duplicate <> ${RULE}`)).toEqual([]);

    beforeAll(async () => {
      s = await openExportSuite(kind, 5);
      await q(`UPDATE subscribers t SET is_duplicate = ${RULE}`);
      process.env.BULK_INLINE_MAX = "10";
      process.env.BULK_BATCH_SIZE = "7";
    });
    afterAll(async () => {
      delete process.env.BULK_INLINE_MAX;
      delete process.env.BULK_BATCH_SIZE;
      await closeExportSuite(s);
    });

    it("a change at once answers 200 with the finished change; its undo puts back every row nobody changed since", async () => {
      await tagged("AtOnce", 6);
      // One row already has the new value: not changed, so not put back either.
      await q(`UPDATE subscribers SET subscription_status = 'active' WHERE last_name = 'AtOnce' AND first_name = 'U6'`);
      const before = await valuesOf("AtOnce");
      const done = await post(s.staff, { filters: { last_name: "AtOnce" }, change: { subscription_status: "active" } });
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({ status: "completed", matched_rows: 6, processed_rows: 6, changed_rows: 5, skipped_rows: 0, undo_of: null, undone_by: null });
      expect((await valuesOf("AtOnce")).every((r) => r.subscription_status === "active")).toBe(true);
      // Someone edits one row after the change (even back and forth): it is left as it is.
      const edited = before[0]!.id;
      await q(`UPDATE subscribers SET subscription_status = 'expired', updated_at = now() WHERE id = ${edited}`);

      const undone = await undo(s.staff, done.body.id);
      expect(undone.status).toBe(200);
      expect(undone.body).toMatchObject({ status: "completed", undo_of: done.body.id, change: { subscription_status: "active" }, changed_rows: 4, skipped_rows: 1 });
      const after = await valuesOf("AtOnce");
      expect(after.find((r) => r.id === edited)!.subscription_status).toBe("expired");
      expect(after.filter((r) => r.id !== edited).map((r) => r.subscription_status)).toEqual(["pending", "pending", "pending", "pending", "active"]);

      // The original now says who undid it, and when; undoing twice, or undoing the undo, is a 409.
      const original = await read(s.admin, done.body.id);
      expect(original.body).toMatchObject({ undone_by: { id: s.staff.id, name: s.staff.name }, undone_at: expect.any(String) });
      expect((await undo(s.staff, done.body.id)).status).toBe(409);
      expect((await undo(s.admin, done.body.id)).status).toBe(409);
      expect((await undo(s.staff, undone.body.id)).status).toBe(409);
      const events = await q<{ action: string; after: Record<string, unknown> }>(`SELECT action, after FROM audit_events WHERE entity = 'bulk_change' AND entity_id IN ('${done.body.id}', '${undone.body.id}') ORDER BY id`);
      expect(events.map((e) => e.action)).toEqual(["subscriber.bulk_change", "subscriber.bulk_undo"]);
      expect(events[1]!.after).toMatchObject({ undo_of: done.body.id, changed: 4, skipped: 1 });
      await countsExact();
    });

    it("the request's rules: exactly one of filters and ids, the page's limits, deletion for administrators; others' changes are 404", async () => {
      await tagged("Rules", 2);
      expect((await post(s.staff, { change: { is_mandatory: true } })).status).toBe(400);
      expect((await post(s.staff, { filters: {}, ids: [1], change: { is_mandatory: true } })).status).toBe(400);
      expect((await post(s.staff, { ids: Array.from({ length: 101 }, (_, i) => i + 1), change: { is_mandatory: true } })).status).toBe(400);
      expect((await post(s.staff, { filters: { emial: "x" }, change: { is_mandatory: true } })).status).toBe(400);
      expect((await post(s.staff, { filters: { last_name: "Nobody at all" }, change: { is_mandatory: true } })).status).toBe(400);
      expect((await post(s.staff, { filters: { last_name: "Rules" }, change: { delete: true } })).status).toBe(403);
      const mine = await post(s.staff, { filters: { last_name: "Rules" }, change: { is_mandatory: true } });
      expect(mine.status).toBe(200);
      const other = { ...s.admin, id: s.admin.id, role: "staff" as const };
      expect((await read(other, mine.body.id)).status).toBe(404);
      expect((await undo(other, mine.body.id)).status).toBe(404);
      expect((await read(s.admin, mine.body.id)).status).toBe(200);
      // A change older than the retention cannot be undone; nor one not finished.
      await q(`UPDATE bulk_changes SET created_at = now() - interval '31 days' WHERE id = '${mine.body.id}'`);
      expect(await undo(s.staff, mine.body.id)).toMatchObject({ status: 409, body: { error: { message: expect.stringContaining("older than 30 days") } } });
      await q(`INSERT INTO bulk_changes (id, user_id, status, target, change) VALUES ('unfinished000000000000', ${s.staff.id}, 'running', '{"filters": {}}', '{"is_mandatory": true}')`);
      expect((await undo(s.staff, "unfinished000000000000")).status).toBe(409);
    });

    it("a deletion's undo restores its rows from the trash (administrators only); rows restored or erased since are skipped", async () => {
      await tagged("Gone", 5);
      const ids = (await valuesOf("Gone")).map((r) => r.id);
      const done = await post(s.admin, { ids, change: { delete: true } });
      expect(done.body).toMatchObject({ status: "completed", changed_rows: 5 });
      expect(await valuesOf("Gone")).toEqual([]);
      expect(await q(`SELECT count(*)::int AS n FROM subscriber_trash WHERE bulk_change_id = '${done.body.id}'`)).toEqual([{ n: 5 }]);
      // An administrator demoted since, and staff, cannot undo a deletion.
      await expect(requestUndo(EVERY_BRANCH, { ...s.admin, role: "staff" }, done.body.id)).rejects.toMatchObject({ status: 403 });
      expect((await undo(s.staff, done.body.id)).status).toBe(404);
      // One row restored by hand meanwhile, one erased.
      await q(`DELETE FROM subscriber_trash WHERE id = ${ids[0]}`);
      const undone = await undo(s.admin, done.body.id);
      expect(undone.body).toMatchObject({ status: "completed", changed_rows: 4, skipped_rows: 1, undo_of: done.body.id });
      expect((await valuesOf("Gone")).map((r) => r.id)).toEqual(ids.slice(1));
      await countsExact();
      await flagsExact();
    });

    it("a large change runs as a job (202), and so does its undo, batch by batch: a killed attempt's retry finishes it, no row twice", async () => {
      await tagged("Large", 30);
      const queued = await post(s.staff, { filters: { last_name: "Large" }, change: { is_mandatory: true } });
      expect(queued.status).toBe(202);
      expect(queued.body).toMatchObject({ status: "in_queue", matched_rows: 30 });
      const done = await waitFor(s.staff, queued.body.id);
      expect(done).toMatchObject({ status: "completed", processed_rows: 30, changed_rows: 30 });
      expect(await q(`SELECT count(*)::int AS n FROM bulk_change_rows WHERE bulk_change_id = '${done.id}'`)).toEqual([{ n: 30 }]);
      const edited = (await valuesOf("Large"))[10]!.id;
      await q(`UPDATE subscribers SET is_mandatory = false, updated_at = now() WHERE id = ${edited}`);

      const undoQueued = await undo(s.staff, done.id);
      expect(undoQueued.status).toBe(202);
      expect(undoQueued.body).toMatchObject({ status: "in_queue", undo_of: done.id, matched_rows: 30 });
      expect((await undo(s.staff, done.id)).status).toBe(409); // being undone
      // The first attempt dies after its first batch (its transaction committed).
      const controller = new AbortController();
      await expect(runBulkChange(undoQueued.body.id, controller.signal, () => controller.abort(new Error("killed")))).rejects.toThrow();
      const half = await read(s.staff, undoQueued.body.id);
      expect(half.body).toMatchObject({ status: "running", processed_rows: 7 });
      expect((await valuesOf("Large")).filter((r) => !r.is_mandatory).length).toBeGreaterThanOrEqual(7);
      const finished = await waitFor(s.staff, undoQueued.body.id);
      expect(finished).toMatchObject({ status: "completed", processed_rows: 30, changed_rows: 29, skipped_rows: 1 });
      expect((await valuesOf("Large")).every((r) => !r.is_mandatory)).toBe(true);
      expect(await q(`SELECT count(*)::int AS n FROM bulk_change_rows WHERE bulk_change_id = '${done.id}'`)).toEqual([{ n: 0 }]);
      expect((await read(s.staff, done.id)).body.undone_by).toEqual({ id: s.staff.id, name: s.staff.name });
      await countsExact();
    });

    it("a large deletion's undo runs as a job and restores every row with its duplicate flags", async () => {
      await tagged("Many", 15);
      // Later copies of the first three: flagged while their originals live.
      await q(`INSERT INTO subscribers (first_name, last_name, email, mobile, subscription_status, is_duplicate)
        SELECT 'Copy', 'Duplicate', 'many' || g || '@undo.test', '+1555000' || g, 'active', true FROM generate_series(1, 3) g`);
      await flagsExact();
      const queued = await post(s.admin, { filters: { last_name: "Many" }, change: { delete: true } });
      expect(queued.status).toBe(202);
      await waitFor(s.admin, queued.body.id);
      await flagsExact();
      expect(await q(`SELECT count(*)::int AS n FROM subscribers WHERE last_name = 'Duplicate' AND is_duplicate`)).toEqual([{ n: 0 }]);
      const undone = await undo(s.admin, queued.body.id);
      expect(undone.status).toBe(202);
      expect(await waitFor(s.admin, undone.body.id)).toMatchObject({ status: "completed", changed_rows: 15, skipped_rows: 0 });
      expect((await valuesOf("Many")).length).toBe(15);
      expect(await q(`SELECT count(*)::int AS n FROM subscribers WHERE last_name = 'Duplicate' AND is_duplicate`)).toEqual([{ n: 3 }]);
      await flagsExact();
      await countsExact();
    });
  });
}
