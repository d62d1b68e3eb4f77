import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { SessionUser } from "@/lib/auth/permissions";
import { branchScope } from "@/lib/auth/scope";
import type { Database } from "@/lib/db/client";
import { isRetryable } from "@/lib/db/retry";
import { connection, sql } from "@/lib/db/sql";
import { transaction } from "@/lib/db/transaction";
import { dismissDuplicates, undoDismissal } from "@/lib/subscribers/dismissals";
import { findSubscriber } from "@/lib/subscribers/record";
import { mergeSubscribers, undoMerge } from "@/lib/subscribers/merge";
import { createSubscriber } from "@/lib/subscribers/mutations";
import { mergeBodySchema } from "@/lib/subscribers/duplicate-schema";
import { subscriberInputSchema } from "@/lib/subscribers/schema";
import { syncCountries } from "@/tools/seed/demo";
import { createToken } from "@/lib/tokens/tokens";
import { tokenCreateSchema } from "@/lib/tokens/schema";
import { endSessions } from "@/lib/auth/sign-out";
import { createUsers, testDatabase, testDbKinds } from "../helpers/db";

// Every write that takes subscriber rows or duplicate keys runs in a transaction that is run again
// when PostgreSQL aborts it to break a deadlock (docs/decisions/0035-deadlocks-retried-where-transactions-open.md):
// the one way a transaction opens (lib/db/transaction.ts, docs/decisions/0038-one-transaction-path.md),
// with Prisma's models and raw statements, and the merge, its undo, "not duplicates", creation and
// writes elsewhere (tokens, sign-out) on it. The deadlock is the database's own error
// (SQLSTATE 40P01), raised once by a trigger in the middle of the unit of work; the second run
// must answer as the first would have, and leave nothing twice. tests/http/deadlocks.test.ts
// makes real deadlocks on PostgreSQL.

const EVERY = branchScope({ role: "admin", branch_ids: null });

for (const kind of testDbKinds()) {
  describe(`writes aborted by a deadlock are run again on ${kind}`, () => {
    let database: Database;
    let users: { admin: SessionUser; staff: SessionUser };
    let n = 0;
    const run = async (text: string) => (await connection()).query<Record<string, unknown>>(text);
    const count = async (text: string) => Number((await run(`SELECT count(*)::int AS n FROM ${text}`))[0]!.n);

    /** Makes the next `times` rows written to `table` fail as a deadlock does (a sequence counts across rolled-back attempts). */
    const deadlockOn = async (table: string, times = 1) => {
      await run(`DROP TRIGGER IF EXISTS deadlock_once ON ${table}`);
      await run(`DROP SEQUENCE IF EXISTS deadlock_tries`);
      await run(`CREATE SEQUENCE deadlock_tries`);
      await run(`CREATE OR REPLACE FUNCTION deadlock_once() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF nextval('deadlock_tries') <= ${times} THEN RAISE EXCEPTION 'deadlock detected (test)' USING ERRCODE = 'deadlock_detected'; END IF;
          RETURN NEW;
        END $$`);
      await run(`CREATE TRIGGER deadlock_once BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION deadlock_once()`);
    };
    /** How many times the trigger ran: the attempts that reached the write. */
    const attempts = async () => Number((await run(`SELECT last_value::int AS n FROM deadlock_tries`))[0]!.n);
    const make = (values: Record<string, unknown>) => {
      n += 1;
      return createSubscriber(
        EVERY,
        subscriberInputSchema.parse({ first_name: "Dee", last_name: `Retry ${n}`, email: `dee.${n}@retry.test`, mobile: `+4474007${String(n).padStart(5, "0")}`, subscription_status: "active", is_mandatory: false, ...values }),
        users.admin,
      );
    };

    beforeAll(async () => {
      database = await testDatabase(kind);
      await syncCountries(database.prisma);
      users = await createUsers(database);
    });
    afterEach(async () => {
      for (const table of ["subscribers", "subscriber_merges", "subscriber_dismissals", "audit_events"]) await run(`DROP TRIGGER IF EXISTS deadlock_once ON ${table}`);
    });
    afterAll(async () => {
      await database?.close();
    });

    it("transaction() runs the work again after a deadlock, its first attempt's writes undone; other errors and a lasting deadlock are not hidden", async () => {
      await deadlockOn("audit_events");
      let runs = 0;
      const write = (name: string) =>
        transaction(async (tx) => {
          runs++;
          await tx.branch.create({ data: { name: `${name} ${runs}` } });
          await tx.auditEvent.create({ data: { action: "branch.create", entity: "branch" } });
          return runs;
        });
      expect(await write("Retried")).toBe(2);
      expect(await count(`branches WHERE name LIKE 'Retried %'`)).toBe(1);
      expect(await run(`SELECT name FROM branches WHERE name LIKE 'Retried %'`)).toEqual([{ name: "Retried 2" }]);
      runs = 0;
      await expect(transaction(async () => { runs++; throw new Error("not a deadlock"); })).rejects.toThrow("not a deadlock");
      expect(runs).toBe(1);
      await deadlockOn("audit_events", 99);
      await expect(write("Lasting")).rejects.toSatisfy(isRetryable);
      expect(await count(`branches WHERE name LIKE 'Lasting %'`)).toBe(0);
      expect(await attempts()).toBe(5);
    });

    it("raw statements in transaction() are run again after a deadlock, its first attempt's writes undone", async () => {
      await deadlockOn("audit_events");
      let runs = 0;
      const done = await transaction(async (tx) => {
        runs++;
        await tx.query(sql`INSERT INTO branches (name, updated_at) VALUES (${`Raw ${runs}`}, now())`);
        await tx.query(sql`INSERT INTO audit_events (action, entity) VALUES ('branch.create', 'branch')`);
        return runs;
      });
      expect(done).toBe(2);
      expect(await run(`SELECT name FROM branches WHERE name LIKE 'Raw %'`)).toEqual([{ name: "Raw 2" }]);
    });

    it("a merge, and its undo, aborted by a deadlock are run again: merged once, undone once", async () => {
      const survivor = await make({ email: "merge@retry.test" });
      const merged = await make({ email: "MERGE@retry.test" });
      const [s, m] = [(await findSubscriber(EVERY, survivor.id))!, (await findSubscriber(EVERY, merged.id))!];
      const input = mergeBodySchema.parse({
        survivor_id: s.id,
        merged_ids: [m.id],
        values: { first_name: m.id },
        updated_at: { [s.id]: s.updated_at.toISOString(), [m.id]: m.updated_at.toISOString() },
      });
      await deadlockOn("subscriber_merges");
      const result = await mergeSubscribers(EVERY, input, users.admin);
      expect(await attempts()).toBe(2);
      expect(result.survivor).toMatchObject({ id: s.id, last_name: s.last_name, first_name: m.first_name });
      expect(await count(`subscriber_merges WHERE survivor_id = ${s.id}`)).toBe(1);
      expect(await count(`subscriber_trash WHERE id = ${m.id} AND merged_into = ${s.id}`)).toBe(1);
      expect(await count(`audit_events WHERE action = 'subscriber.merge' AND entity_id = '${s.id}'`)).toBe(1);

      await deadlockOn("subscribers");
      const undone = await undoMerge(EVERY, result.merge_id, users.admin);
      expect(await attempts()).toBe(2);
      expect(undone).toMatchObject({ id: s.id, first_name: s.first_name });
      expect(await count(`subscribers WHERE id = ${m.id}`)).toBe(1);
      expect(await count(`audit_events WHERE action = 'subscriber.merge_undo' AND entity_id = '${s.id}'`)).toBe(1);
    });

    it("\"not duplicates\", and taking it back, aborted by a deadlock are run again: stored once, audited once", async () => {
      const first = await make({ email: "pair@retry.test" });
      const second = await make({ email: "Pair@retry.test" });
      await deadlockOn("subscriber_dismissals");
      expect(await dismissDuplicates(EVERY, [first.id, second.id], users.staff)).toEqual({ ids: [first.id, second.id], pairs: [[first.id, second.id]], decided_again: [second.id] });
      expect(await attempts()).toBe(2);
      expect(await count(`audit_events WHERE action = 'subscriber.not_duplicates'`)).toBe(1);

      await deadlockOn("audit_events");
      expect(await undoDismissal(EVERY, [first.id, second.id], users.admin)).toEqual({ ids: [first.id, second.id], pairs: [[first.id, second.id]], decided_again: [second.id] });
      expect(await attempts()).toBe(2);
      expect(await count(`audit_events WHERE action = 'subscriber.duplicates_again'`)).toBe(1);
      expect(await count(`subscriber_dismissals`)).toBe(0);
    });

    it("writes beside the subscribers, a token's creation and a sign-out, aborted by a deadlock are run again: done once, audited once", async () => {
      await deadlockOn("audit_events");
      const { row } = await createToken(users.staff, tokenCreateSchema.parse({ name: "Retried token", scope: "read", expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10) }));
      expect(await attempts()).toBe(2);
      expect(await count(`api_tokens WHERE name = 'Retried token'`)).toBe(1);
      expect(await count(`audit_events WHERE action = 'token.create' AND entity_id = '${row.id}'`)).toBe(1);

      await deadlockOn("audit_events");
      const [before] = await run(`SELECT session_version AS v FROM users WHERE id = ${users.staff.id}`);
      await endSessions(users.staff.id);
      expect(await attempts()).toBe(2);
      expect(await run(`SELECT session_version AS v FROM users WHERE id = ${users.staff.id}`)).toEqual([{ v: Number(before!.v) + 1 }]);
      expect(await count(`audit_events WHERE action = 'auth.sign_out' AND actor_id = ${users.staff.id}`)).toBe(1);
    });

    it("a creation aborted by a deadlock is run again: created once, audited once", async () => {
      await deadlockOn("subscribers");
      const created = await make({ email: "fresh@retry.test", sheet_name: "Retry sheet" });
      expect(await attempts()).toBe(2);
      expect(created).toMatchObject({ email: "fresh@retry.test", sheet_name: "Retry sheet", is_duplicate: false });
      expect(await count(`subscribers WHERE email = 'fresh@retry.test'`)).toBe(1);
      expect(await count(`sheets WHERE name = 'Retry sheet'`)).toBe(1);
      expect(await count(`audit_events WHERE action = 'subscriber.create' AND entity_id = '${created.id}'`)).toBe(1);
    });
  });
}
