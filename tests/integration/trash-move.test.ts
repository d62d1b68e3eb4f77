import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/client";
import { connection } from "@/lib/db/sql";
import { eraseSubscribers, restoreSubscribers, trashSubscribers } from "@/lib/trash/subscribers";
import { createUsers, testDatabase, testDbKinds } from "../helpers/db";
import { transaction, type Tx } from "@/lib/db/transaction";

// The trash's moves, in the caller's transaction: a trashed subscriber leaves `subscribers` whole
// (kept counts follow by their triggers), later duplicates are decided again, restoring brings the
// same id back with its flags decided again, erasing forgets it and its audit values.

/** The creation rule's flag for every subscriber. */
const RULE = `(EXISTS (SELECT 1 FROM subscribers e WHERE lower(e.email) = lower(t.email) AND e.id < t.id)
  OR EXISTS (SELECT 1 FROM subscribers e WHERE e.mobile = t.mobile AND e.id < t.id))`;

for (const kind of testDbKinds()) {
  describe(`moving subscribers to the trash on ${kind}`, () => {
    let database: Database;
    let adminId: number;
    const q = async <T,>(text: string) => (await connection()).query<T>(text);
    const tx = <T,>(run: (t: Tx) => Promise<T>) => transaction(run);
    const countsExact = async () => {
      const [row] = await q<{ kept: number; actual: number; branches: number }>(`SELECT
        (SELECT coalesce(sum(total), 0)::int FROM subscriber_status_counts) AS kept,
        (SELECT count(*)::int FROM subscribers) AS actual,
        (SELECT count(*)::int FROM (SELECT branch_id, subscription_status, is_duplicate, is_mandatory, count(*) AS n FROM subscribers WHERE branch_id IS NOT NULL GROUP BY 1, 2, 3, 4) a
           FULL JOIN subscriber_branch_counts t USING (branch_id, subscription_status, is_duplicate, is_mandatory)
          WHERE coalesce(a.n, 0) <> coalesce(t.total, 0)) AS branches`);
      expect(row!.kept).toBe(row!.actual);
      expect(row!.branches).toBe(0);
    };
    const flagsExact = async () => expect(await q(`SELECT t.id FROM subscribers t WHERE t.is_duplicate <> ${RULE}`)).toEqual([]);

    beforeAll(async () => {
      database = await testDatabase(kind);
      adminId = (await createUsers(database)).admin.id;
      await q(`INSERT INTO branches (name, updated_at) VALUES ('North', now())`);
      // 1..3 share an email (any case), 4 and 5 a mobile, 6 stands alone.
      await q(`INSERT INTO subscribers (id, first_name, last_name, email, mobile, branch_id, subscription_status, is_duplicate) VALUES
        (1, 'A', 'One', 'same@trash.test', '+15550001', (SELECT id FROM branches WHERE name = 'North'), 'active', false),
        (2, 'B', 'Two', 'SAME@trash.test', '+15550002', (SELECT id FROM branches WHERE name = 'North'), 'pending', true),
        (3, 'C', 'Three', 'same@trash.test', '+15550003', NULL, 'active', true),
        (4, 'D', 'Four', 'four@trash.test', '+15550044', NULL, 'expired', false),
        (5, 'E', 'Five', 'five@trash.test', '+15550044', (SELECT id FROM branches WHERE name = 'North'), 'active', true),
        (6, 'F', 'Six', 'six@trash.test', '+15550006', NULL, 'cancelled', false)`);
      await q(`SELECT setval(pg_get_serial_sequence('subscribers', 'id'), 6)`);
      await flagsExact();
      await countsExact();
    });
    afterAll(async () => {
      await database?.close();
    });

    it("moves rows out of subscribers whole, decides later duplicates again, and keeps counts exact", async () => {
      const moved = await tx((t) => trashSubscribers(t, [1, 4, 999], { deletedBy: adminId }));
      expect(moved).toEqual([1, 4]);
      expect((await q<{ id: number }>(`SELECT id FROM subscribers ORDER BY id`)).map((r) => r.id)).toEqual([2, 3, 5, 6]);
      const [trashed] = await q<Record<string, unknown>>(`SELECT id, email, subscription_status::text AS subscription_status, deleted_by, merged_into, bulk_change_id, deleted_at IS NOT NULL AS dated
        FROM subscriber_trash WHERE id = 1`);
      expect(trashed).toEqual({ id: 1, email: "same@trash.test", subscription_status: "active", deleted_by: adminId, merged_into: null, bulk_change_id: null, dated: true });
      await flagsExact(); // 2 is no longer a duplicate (3 still is, of 2); 5 neither
      expect((await q<{ is_duplicate: boolean }>(`SELECT is_duplicate FROM subscribers WHERE id = 5`))[0]!.is_duplicate).toBe(false);
      await countsExact();
    });

    it("records the survivor of a merge and a bulk change's id, and can leave the decision to the caller", async () => {
      await q(`INSERT INTO bulk_changes (id, user_id, target, change, status) VALUES ('bc1', ${adminId}, '{"ids": [3]}', '{"delete": true}', 'completed')`);
      await tx((t) => trashSubscribers(t, [3], { deletedBy: adminId, mergedInto: 2, bulkChangeId: "bc1", decideAgain: false }));
      expect(await q(`SELECT merged_into, bulk_change_id FROM subscriber_trash WHERE id = 3`)).toEqual([{ merged_into: 2, bulk_change_id: "bc1" }]);
      await countsExact();
    });

    it("restores the same ids with their flags and the later ones decided again", async () => {
      const restored = await tx((t) => restoreSubscribers(t, [4, 1, 3, 12345]));
      expect(restored).toEqual([1, 3, 4]);
      expect(await q(`SELECT id FROM subscriber_trash`)).toEqual([]);
      const rows = await q<{ id: number; is_duplicate: boolean; updated: boolean }>(`SELECT id, is_duplicate, updated_at IS NOT NULL AS updated FROM subscribers ORDER BY id`);
      expect(rows.map((r) => [r.id, r.is_duplicate])).toEqual([[1, false], [2, true], [3, true], [4, false], [5, true], [6, false]]);
      expect(rows.filter((r) => [1, 3, 4].includes(r.id)).every((r) => r.updated)).toBe(true);
      await flagsExact();
      await countsExact();
    });

    it("restoring two matching rows together flags the later one", async () => {
      await tx((t) => trashSubscribers(t, [4, 5], { deletedBy: adminId }));
      await tx((t) => restoreSubscribers(t, [5, 4]));
      expect(await q(`SELECT id, is_duplicate FROM subscribers WHERE id IN (4, 5) ORDER BY id`)).toEqual([{ id: 4, is_duplicate: false }, { id: 5, is_duplicate: true }]);
      await flagsExact();
    });

    it("erases for good, with the values of the subscriber's own audit events", async () => {
      await q(`INSERT INTO audit_events (action, entity, entity_id, before, after) VALUES
        ('subscriber.update', 'subscriber', '6', '{"id": 6, "email": "six@trash.test"}', '{"id": 6, "email": "new@trash.test"}'),
        ('subscriber.create', 'subscriber', '5', NULL, '{"id": 5, "email": "five@trash.test"}')`);
      await tx((t) => trashSubscribers(t, [6], { deletedBy: adminId }));
      expect(await tx((t) => eraseSubscribers(t, [6, 5]))).toEqual([6]); // 5 is not in the trash
      expect(await q(`SELECT id FROM subscriber_trash`)).toEqual([]);
      expect(await q(`SELECT id FROM subscribers WHERE id = 6`)).toEqual([]);
      expect(await q(`SELECT before, after FROM audit_events WHERE entity_id = '6'`)).toEqual([{ before: { id: 6, erased: true }, after: { id: 6, erased: true } }]);
      expect(await q(`SELECT after FROM audit_events WHERE entity_id = '5'`)).toEqual([{ after: { id: 5, email: "five@trash.test" } }]);
      await countsExact();
    });

    it("a transaction that fails moves nothing", async () => {
      await expect(tx(async (t) => {
        await trashSubscribers(t, [2], { deletedBy: adminId });
        throw new Error("boom");
      })).rejects.toThrow("boom");
      expect(await q(`SELECT id FROM subscribers WHERE id = 2`)).toEqual([{ id: 2 }]);
      expect(await q(`SELECT id FROM subscriber_trash`)).toEqual([]);
    });
  });
}
