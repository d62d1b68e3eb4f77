import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { branchScope } from "@/lib/auth/scope";
import { connection } from "@/lib/db/sql";
import { AppError } from "@/lib/errors";
import { isRetryable } from "@/lib/db/retry";
import { requestBulkChange, requestUndo, runBulkChange } from "@/lib/subscribers/bulk";
import { deleteSubscriber, editableFields, updateSubscriber } from "@/lib/subscribers/edit";
import { getSubscriber } from "@/lib/subscribers/record";
import { subscriberInputSchema } from "@/lib/subscribers/schema";
import { restoreTrashedSubscriber } from "@/lib/trash/manage";
import { closeExportSuite, openExportSuite, type ExportSuite } from "../helpers/export-test";

// Trashing, restoring and undoing many rows run in short batches beside users' one-row work: an
// edit waits for at most one batch (well under a second), and an edit or a deletion racing a bulk
// change, an undo or a restore never fails with a deadlock (locks in one order, and a retry of
// what PostgreSQL aborts). PostgreSQL only: PGlite runs one statement at a time.

const ROWS = 60_000;
const EVERY = branchScope({ role: "admin", branch_ids: null });

if (process.env.TEST_DATABASE_URL) {
  describe("the trash beside users' edits (postgres)", () => {
    let s: ExportSuite;
    const q = async <T,>(text: string) => (await connection()).query<T>(text);

    beforeAll(async () => {
      s = await openExportSuite("postgres", ROWS);
      await q(`UPDATE subscribers SET is_duplicate = false WHERE is_duplicate`);
      process.env.BULK_INLINE_MAX = "100";
    }, 180_000);
    afterAll(async () => {
      delete process.env.BULK_INLINE_MAX;
      await closeExportSuite(s);
    });

    /** Edits `ids` one after another until `done` settles; each edit's wait in milliseconds. */
    const editWhile = async (done: Promise<unknown>, ids: number[]) => {
      let finished = false;
      void done.finally(() => (finished = true));
      const waits: number[] = [];
      for (let i = 0; !finished; i++) {
        const id = ids[i % ids.length]!;
        const started = performance.now();
        try {
          const current = await getSubscriber(EVERY, id);
          await updateSubscriber(EVERY, id, subscriberInputSchema.parse({ ...editableFields(current), first_name: `Edit${i}` }), current.updated_at, s.staff);
        } catch (error) {
          if (!(AppError.is(error) && (error.status === 404 || error.status === 409))) throw error;
        }
        waits.push(performance.now() - started);
      }
      await done;
      return waits;
    };

    it("a one-row edit waits less than a second while a large deletion, and then its undo, run", async () => {
      // A quarter of the subscribers (the active ones) are deleted; the edits touch rows in and out of it.
      const change = await requestBulkChange(EVERY, s.admin, { filters: { subscription_status: "active" } }, { delete: true });
      expect(change.kind).toBe("queued");
      const edited = (await q<{ id: number }>(`SELECT id FROM subscribers WHERE id % 997 = 0 ORDER BY id`)).map((r) => r.id);
      const deleting = await editWhile(runBulkChange(change.id), edited);
      expect(deleting.length).toBeGreaterThan(5);
      expect(Math.max(...deleting)).toBeLessThan(1_000);
      const undo = await requestUndo(EVERY, s.admin, change.id);
      expect(undo.kind).toBe("queued");
      const undoing = await editWhile(runBulkChange(undo.id), edited);
      expect(undoing.length).toBeGreaterThan(5);
      expect(Math.max(...undoing)).toBeLessThan(1_000);
      expect(await q(`SELECT count(*)::int AS n FROM subscriber_trash`)).toEqual([{ n: 0 }]);
    }, 300_000);

    it("edits and deletions racing bulk changes, undos and restores never fail with a deadlock", async () => {
      const failures: unknown[] = [];
      const settle = async (work: Promise<unknown>) => {
        try {
          await work;
        } catch (error) {
          if (AppError.is(error) && [400, 404, 409].includes(error.status)) return;
          failures.push(error);
        }
      };
      for (let round = 0; round < 25; round++) {
        // Six subscribers sharing keys in pairs, so every move decides the others' flags again.
        const rows = await q<{ id: number }>(`INSERT INTO subscribers (first_name, last_name, email, mobile, subscription_status, is_duplicate)
          SELECT 'Race', 'R${round}', 'race${round}-' || (g / 2) || '@race.test', '+1777${String(round).padStart(3, "0")}' || (g / 2), 'active', g % 2 = 1
            FROM generate_series(0, 5) g RETURNING id`);
        const ids = rows.map((r) => r.id).sort((a, b) => a - b);
        const edit = async (id: number) => {
          const current = await getSubscriber(EVERY, id);
          await updateSubscriber(EVERY, id, subscriberInputSchema.parse({ ...editableFields(current), subscription_status: "expired" }), current.updated_at, s.staff);
        };
        const bulk = requestBulkChange(EVERY, s.admin, { ids }, { delete: true });
        await Promise.all([settle(bulk), settle(edit(ids[1]!)), settle(edit(ids[4]!)), settle(deleteSubscriber(EVERY, ids[3]!, s.admin))]);
        const done = await bulk.catch(() => null);
        if (done) {
          await Promise.all([settle(requestUndo(EVERY, s.admin, done.id)), settle(restoreTrashedSubscriber(ids[3]!, s.admin)), settle(edit(ids[0]!))]);
        }
        const status = requestBulkChange(EVERY, s.staff, { ids }, { subscription_status: "cancelled" });
        await Promise.all([settle(status), settle(edit(ids[2]!)), settle(deleteSubscriber(EVERY, ids[5]!, s.admin))]);
        const changed = await status.catch(() => null);
        if (changed) await Promise.all([settle(requestUndo(EVERY, s.staff, changed.id)), settle(edit(ids[2]!)), settle(restoreTrashedSubscriber(ids[5]!, s.admin))]);
      }
      expect(failures.filter(isRetryable)).toEqual([]);
      expect(failures).toEqual([]);
      const RULE = `(EXISTS (SELECT 1 FROM subscribers e WHERE lower(e.email) = lower(t.email) AND e.id < t.id)
        OR EXISTS (SELECT 1 FROM subscribers e WHERE e.mobile = t.mobile AND e.id < t.id))`;
      expect(await q(`SELECT t.id FROM subscribers t WHERE t.last_name LIKE 'R%' AND t.first_name = 'Race' AND t.is_duplicate <> ${RULE}`)).toEqual([]);
      const [counts] = await q<{ kept: number; actual: number }>(`SELECT (SELECT sum(total)::int FROM subscriber_status_counts) AS kept, (SELECT count(*)::int FROM subscribers) AS actual`);
      expect(counts!.kept).toBe(counts!.actual);
    }, 300_000);
  });
}
