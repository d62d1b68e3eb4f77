import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as importPOST } from "@/app/api/v1/subscribers/imports/route";
import { GET as importGET } from "@/app/api/v1/subscribers/imports/[id]/route";
import { branchScope } from "@/lib/auth/scope";
import { connection } from "@/lib/db/sql";
import type { ImportStatus } from "@/lib/imports/imports";
import { startJobWorker } from "@/lib/jobs/worker";
import { requestBulkChange } from "@/lib/subscribers/bulk";
import { dismissDuplicates, undoDismissal } from "@/lib/subscribers/dismissals";
import { deleteSubscriber, editableFields, updateSubscriber } from "@/lib/subscribers/edit";
import { createSubscriber } from "@/lib/subscribers/mutations";
import { findSubscriber } from "@/lib/subscribers/record";
import { mergeBodySchema } from "@/lib/subscribers/duplicate-schema";
import { mergeSubscribers, undoMerge } from "@/lib/subscribers/merge";
import { restoreSubscribers, trashSubscribers } from "@/lib/trash/subscribers";
import { AppError } from "@/lib/errors";
import { subscriberInputSchema } from "@/lib/subscribers/schema";
import { actAs, testDbKinds } from "../helpers/db";
import { closeExportSuite, openExportSuite, type ExportSuite } from "../helpers/export-test";
import { routeContext } from "../helpers/http";
import { transaction } from "@/lib/db/transaction";

const EVERY = branchScope({ role: "admin", branch_ids: null });

// Duplicates are decided the same everywhere: after any sequence of creations, edits, imports (and
// their dry runs), deletions, bulk deletions, moves to the trash and restores, merges and their
// undo, "not duplicates" and their undo, every subscriber's
// flags (which rule flags it, and either) equal the rule decided from scratch, here in plain code: an earlier subscriber (smaller id)
// shares its email (trimmed, any case) or its mobile, the pair not dismissed.

/** Few keys, so sequences make many matches; emails differ in case and spaces only. */
const EMAILS = ["ann@dup.test", "ANN@dup.test", " Ann@Dup.test ", "bob@dup.test", "cy@dup.test"];
const MOBILES = ["+447400300001", "+447400300002", "+447400300003"];

type Flags = { is_duplicate: boolean; duplicate_by_email: boolean; duplicate_by_mobile: boolean };
type Row = { id: number; email: string; mobile: string } & Flags;

/** The rule from scratch: the flags every subscriber should have (which rule flags it, and either). */
function flagsFromScratch(rows: readonly Pick<Row, "id" | "email" | "mobile">[], dismissed: ReadonlySet<string>): Map<number, Flags> {
  const key = (e: string) => e.trim().toLowerCase();
  const sorted = [...rows].sort((a, b) => a.id - b.id);
  return new Map(
    sorted.map((t) => {
      const earlier = sorted.filter((e) => e.id < t.id && !dismissed.has(`${e.id}:${t.id}`));
      const byEmail = earlier.some((e) => key(e.email) === key(t.email));
      const byMobile = earlier.some((e) => e.mobile === t.mobile);
      return [t.id, { is_duplicate: byEmail || byMobile, duplicate_by_email: byEmail, duplicate_by_mobile: byMobile }];
    }),
  );
}

const pick = fc.nat({ max: 50 });
const op = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("create" as const), email: fc.nat({ max: EMAILS.length - 1 }), mobile: fc.nat({ max: MOBILES.length - 1 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("edit" as const), who: pick, email: fc.nat({ max: EMAILS.length - 1 }), mobile: fc.nat({ max: MOBILES.length - 1 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), who: pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("bulk_delete" as const), who: fc.array(pick, { minLength: 1, maxLength: 3 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("dismiss" as const), who: fc.array(pick, { minLength: 2, maxLength: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("undo_dismiss" as const), who: fc.array(pick, { minLength: 2, maxLength: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("trash" as const), who: fc.array(pick, { minLength: 1, maxLength: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("restore" as const), who: pick }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("merge" as const),
      who: fc.array(pick, { minLength: 2, maxLength: 3 }),
      values: fc.subarray(["first_name", "email", "mobile", "travel_date"] as const).chain((fields) => fc.tuple(fc.constant(fields), fc.array(pick, { minLength: fields.length, maxLength: fields.length }))),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("undo_merge" as const), which: pick }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("import" as const),
      dry: fc.boolean(),
      rows: fc.array(fc.tuple(fc.nat({ max: EMAILS.length - 1 }), fc.nat({ max: MOBILES.length - 1 })), { minLength: 1, maxLength: 3 }),
    }),
  },
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

for (const kind of testDbKinds()) {
  describe(`duplicates decided by one rule on ${kind}`, () => {
    let s: ExportSuite;
    const q = async <T,>(text: string) => (await connection()).query<T>(text);
    const ids = async () => (await q<{ id: number }>(`SELECT id FROM subscribers ORDER BY id`)).map((r) => r.id);
    let n = 0;

    beforeAll(async () => {
      s = await openExportSuite(kind, 0);
      await startJobWorker();
    });
    afterAll(async () => {
      actAs(null);
      await closeExportSuite(s);
    });

    async function importRows(rows: [number, number][], dry: boolean): Promise<ImportStatus> {
      actAs(s.staff);
      const csv = ["first_name,last_name,email,mobile", ...rows.map(([e, m]) => `Imp,Row ${(n += 1)},${EMAILS[e]!.trim()},${MOBILES[m]}`)].join("\n");
      const data = new FormData();
      if (dry) data.set("dry_run", "true");
      data.set("file", new Blob([csv]), "dups.csv");
      const response = await importPOST(new Request("http://localhost/api/v1/subscribers/imports", { method: "POST", body: data }), {});
      const body = (await response.json()) as ImportStatus;
      expect(response.status, JSON.stringify(body)).toBe(dry ? 200 : 202);
      for (let status = body; ; ) {
        if (status.status === "completed") return status;
        expect(status.status).not.toBe("failed");
        await new Promise((r) => setTimeout(r, 100));
        status = (await (await importGET(new Request(`http://localhost/api/v1/subscribers/imports/${body.id}`), routeContext({ id: body.id }))).json()) as ImportStatus;
      }
    }

    async function apply(o: Op) {
      const present = await ids();
      const at = (i: number) => present[i % present.length]!;
      /** Distinct subscribers: consecutive ones from each pick's place. */
      const some = (picks: number[]) => [...new Set(picks.map((p, i) => at(p + i)))];
      if (o.kind === "create") {
        await createSubscriber(EVERY, subscriberInputSchema.parse({ first_name: "Dee", last_name: `Dup ${(n += 1)}`, email: EMAILS[o.email], mobile: MOBILES[o.mobile], subscription_status: "active", is_mandatory: false }), s.staff);
      } else if (o.kind === "import") {
        const before = await snapshot();
        const status = await importRows(o.rows, o.dry);
        if (o.dry) {
          // A dry run counts the duplicates the same rule would flag, and changes nothing.
          const next = Math.max(0, ...before.rows.map((r) => r.id)) + 1;
          const added = o.rows.map(([e, m], i) => ({ id: next + i, email: EMAILS[e]!, mobile: MOBILES[m]! }));
          const flags = flagsFromScratch([...before.rows, ...added], before.dismissed);
          expect(status.duplicate_rows).toBe(added.filter((r) => flags.get(r.id)?.is_duplicate).length);
          expect((await snapshot()).rows).toEqual(before.rows);
        }
      } else if (!present.length) {
        return;
      } else if (o.kind === "edit") {
        const current = (await findSubscriber(EVERY, at(o.who)))!;
        const input = subscriberInputSchema.parse({ ...editableFields(current), email: EMAILS[o.email], mobile: MOBILES[o.mobile] });
        await updateSubscriber(EVERY, current.id, input, current.updated_at, s.staff);
      } else if (o.kind === "delete") {
        await deleteSubscriber(EVERY, at(o.who), s.admin);
      } else if (o.kind === "bulk_delete") {
        await requestBulkChange(EVERY, s.admin, { ids: some(o.who) }, { delete: true });
      } else if (o.kind === "trash") {
        await transaction((tx) => trashSubscribers(tx, some(o.who), { deletedBy: s.admin.id }));
      } else if (o.kind === "restore") {
        const trashed = (await q<{ id: number }>(`SELECT id FROM subscriber_trash ORDER BY id`)).map((r) => r.id);
        if (trashed.length) await transaction((tx) => restoreSubscribers(tx, [trashed[o.who % trashed.length]!]));
      } else if (o.kind === "merge") {
        const [survivor, ...merged] = some(o.who);
        if (!merged.length) return;
        const members = [survivor!, ...merged];
        const updated_at = Object.fromEntries(await Promise.all(members.map(async (id) => [String(id), (await findSubscriber(EVERY, id))!.updated_at.toISOString()])));
        const [fields, from] = o.values;
        const values = Object.fromEntries(fields.map((f, i) => [f, members[from[i]! % members.length]]));
        await mergeSubscribers(EVERY, mergeBodySchema.parse({ survivor_id: survivor, merged_ids: merged, values, updated_at }), s.admin);
      } else if (o.kind === "undo_merge") {
        const merges = (await q<{ id: string }>(`SELECT id FROM subscriber_merges WHERE undone_at IS NULL ORDER BY created_at`)).map((r) => r.id);
        if (!merges.length) return;
        // Refused (409) when the survivor changed since, or a merged one left the trash: nothing changes then.
        await undoMerge(EVERY, merges[o.which % merges.length]!, s.admin).catch((error: unknown) => {
          if (!(AppError.is(error) && error.status === 409)) throw error;
        });
      } else if (o.kind === "dismiss" || o.kind === "undo_dismiss") {
        const chosen = some(o.who);
        if (chosen.length < 2) return;
        await (o.kind === "dismiss" ? dismissDuplicates(EVERY, chosen, s.staff) : undoDismissal(EVERY, chosen, s.admin));
      }
    }

    async function snapshot() {
      const rows = await q<Row>(`SELECT id, email, mobile, is_duplicate, duplicate_by_email, duplicate_by_mobile FROM subscribers ORDER BY id`);
      const pairs = await q<{ low_id: number; high_id: number }>(`SELECT low_id, high_id FROM subscriber_dismissals`);
      return { rows, dismissed: new Set(pairs.map((p) => `${p.low_id}:${p.high_id}`)) };
    }

    async function expectFlagsFromScratch(history: Op[]) {
      const { rows, dismissed } = await snapshot();
      const expected = flagsFromScratch(rows, dismissed);
      const flags = (r: Flags): Flags => ({ is_duplicate: r.is_duplicate, duplicate_by_email: r.duplicate_by_email, duplicate_by_mobile: r.duplicate_by_mobile });
      const wrong = rows.filter((r) => JSON.stringify(expected.get(r.id)) !== JSON.stringify(flags(r)));
      expect(wrong, `after ${JSON.stringify(history)}`).toEqual([]);
    }

    it("leaves every flag as the rule decides it from scratch, after any sequence of changes", async () => {
      await fc.assert(
        // Three creations first, so merges and dismissals have subscribers to work on.
        fc.asyncProperty(fc.array(op.filter((o) => o.kind === "create"), { minLength: 3, maxLength: 3 }), fc.array(op, { minLength: 1, maxLength: 10 }), async (start, rest) => {
          const ops = [...start, ...rest];
          await q(`DELETE FROM subscribers`);
          await q(`DELETE FROM subscriber_trash`);
          await q(`DELETE FROM subscriber_dismissals`);
          await q(`DELETE FROM subscriber_merges`);
          const done: Op[] = [];
          for (const o of ops) {
            done.push(o);
            await apply(o);
            await expectFlagsFromScratch(done);
          }
        }),
        { numRuns: kind === "pglite" ? 25 : 15, seed: 20261127, endOnFailure: true },
      );
    }, 240_000);

    it("keeps a dismissed pair apart after later edits, and an admin's undo brings the flag back", async () => {
      await q(`DELETE FROM subscribers`);
      const make = (email: string, mobile: string) =>
        createSubscriber(EVERY, subscriberInputSchema.parse({ first_name: "Pat", last_name: `Pair ${(n += 1)}`, email, mobile, subscription_status: "active", is_mandatory: false }), s.staff);
      const a = await make("pat@pair.test", MOBILES[0]!);
      const b = await make("PAT@pair.test", MOBILES[1]!);
      expect((await findSubscriber(EVERY, b.id))!.is_duplicate).toBe(true);
      const result = await dismissDuplicates(EVERY, [b.id, a.id], s.staff);
      expect(result).toEqual({ ids: [a.id, b.id], pairs: [[a.id, b.id]], decided_again: [b.id] });
      expect((await findSubscriber(EVERY, b.id))!.is_duplicate).toBe(false);
      // Later, b takes a's mobile too: still the same two people.
      const current = (await findSubscriber(EVERY, b.id))!;
      await updateSubscriber(EVERY, b.id, subscriberInputSchema.parse({ ...editableFields(current), mobile: MOBILES[0] }), current.updated_at, s.staff);
      expect((await findSubscriber(EVERY, b.id))!.is_duplicate).toBe(false);
      // A third with the same email is a duplicate of both.
      const c = await make("pat@PAIR.test", MOBILES[2]!);
      expect((await findSubscriber(EVERY, c.id))!.is_duplicate).toBe(true);
      const undone = await undoDismissal(EVERY, [a.id, b.id], s.admin);
      expect(undone.pairs).toEqual([[a.id, b.id]]);
      expect((await findSubscriber(EVERY, b.id))!.is_duplicate).toBe(true);
      const events = await q<{ action: string; actor_id: number; after: { ids: number[] } }>(
        `SELECT action, actor_id, after FROM audit_events WHERE action IN ('subscriber.not_duplicates', 'subscriber.duplicates_again') ORDER BY id DESC LIMIT 2`);
      expect(events.map((e) => [e.action, e.actor_id, e.after.ids])).toEqual([
        ["subscriber.duplicates_again", s.admin.id, [a.id, b.id]],
        ["subscriber.not_duplicates", s.staff.id, [a.id, b.id]],
      ]);
    });
  });
}
