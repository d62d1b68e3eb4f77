import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { branchScope } from "@/lib/auth/scope";
import type { Database } from "@/lib/db/client";
import { connection, sql } from "@/lib/db/sql";
import { requestBulkChange, requestUndo, runBulkChange } from "@/lib/subscribers/bulk";
import { createUsers, testDatabase } from "../helpers/db";
import { seedSubscribers } from "../helpers/export-data";
import { spawnWorker, until, type WorkerProcess } from "../helpers/export-process";
import { closeExportSuite, exportTestEnv } from "../helpers/export-test";

// A real worker process killed with SIGKILL in the middle of an undo: every row is either put back
// or not (each batch puts back its rows and forgets their recorded values in one transaction), and
// once the job expires a restarted worker finishes it, no row twice. The same for a deletion's
// undo (rows restored from the trash). PostgreSQL only: an embedded database is opened by one process.

const ROWS = 100_000;
const EVERY = branchScope({ role: "admin", branch_ids: null });

if (process.env.TEST_DATABASE_URL) {
  describe("undo worker crash (postgres)", () => {
    let database: Database;
    let dir: string;
    let admin: Awaited<ReturnType<typeof createUsers>>["admin"];
    const workers: WorkerProcess[] = [];
    let env: Record<string, string>;

    beforeAll(async () => {
      dir = exportTestEnv();
      process.env.JOB_WORKER = "off"; // this process only requests; the spawned ones work
      process.env.JOB_EXPIRE_SECONDS = "20";
      process.env.BULK_INLINE_MAX = "100";
      database = await testDatabase("postgres");
      await seedSubscribers((text) => database.prisma.$executeRawUnsafe(text), ROWS);
      // The seed's emails and mobiles are all different: nobody is a duplicate.
      await database.prisma.$executeRawUnsafe(`UPDATE subscribers SET is_duplicate = false WHERE is_duplicate`);
      admin = (await createUsers(database)).admin;
      env = {
        DATABASE_URL: database.target.kind === "postgres" ? database.target.url : "",
        STORAGE_DIR: process.env.STORAGE_DIR!,
        BULK_BATCH_SIZE: "100",
        JOB_POLL_SECONDS: "1",
        JOB_MAINTENANCE_SECONDS: "1",
        JOB_EXPIRE_SECONDS: "20",
        JOB_RETRY_DELAY_SECONDS: "0",
      };
    }, 120_000);
    afterAll(async () => {
      for (const w of workers) w.child.kill("SIGKILL");
      await Promise.all(workers.map((w) => w.exited));
      delete process.env.JOB_WORKER;
      delete process.env.JOB_EXPIRE_SECONDS;
      delete process.env.BULK_INLINE_MAX;
      await closeExportSuite({ database, dir, staff: admin, admin });
    });

    const q = async <T,>(statement: ReturnType<typeof sql>) => (await connection()).query<T>(statement);
    const state = async (id: string) =>
      (await q<{ status: string; processed_rows: number; changed_rows: number; skipped_rows: number; undo_of: string }>(
        sql`SELECT status::text AS status, processed_rows, changed_rows, skipped_rows, undo_of FROM bulk_changes WHERE id = ${id}`))[0]!;
    const jobRetries = async (id: string) =>
      (await q<{ retry_count: number }>(sql`SELECT retry_count FROM pgboss.job WHERE id::text = (SELECT job_id FROM bulk_changes WHERE id = ${id})`))[0]!.retry_count;
    const kill = async (w: WorkerProcess) => {
      w.child.kill("SIGKILL");
      await w.exited;
    };

    it("a status change's undo: killed mid-job, every row undone or not; the retry finishes it, no row twice", async () => {
      const change = await requestBulkChange(EVERY, admin, { filters: { subscription_status: "pending" } }, { subscription_status: "cancelled" });
      expect(change.kind).toBe("queued");
      await runBulkChange(change.id);
      const [{ n: changed }] = (await q<{ n: number }>(sql`SELECT count(*)::int AS n FROM bulk_change_rows WHERE bulk_change_id = ${change.id}`)) as [{ n: number }];
      expect(changed).toBe(ROWS / 4);
      const undo = await requestUndo(EVERY, admin, change.id);
      expect(undo.kind).toBe("queued");

      const first = spawnWorker(env);
      workers.push(first);
      await until(async () => (await state(undo.id)).processed_rows >= 500, 60_000, `progress\n${first.output()}`);
      await kill(first);
      const killed = await state(undo.id);
      expect(killed.status).toBe("running");
      expect(killed.processed_rows).toBeLessThan(changed);
      // Exactly the rows of the committed batches are back, and only their records are gone.
      const [half] = await q<{ back: number; left: number }>(sql`SELECT
        (SELECT count(*)::int FROM subscribers WHERE subscription_status = 'pending') AS back,
        (SELECT count(*)::int FROM bulk_change_rows WHERE bulk_change_id = ${change.id}) AS left`);
      expect(half).toEqual({ back: killed.processed_rows, left: changed - killed.processed_rows });

      const second = spawnWorker(env);
      workers.push(second);
      await until(async () => (await state(undo.id)).status === "completed", 180_000, `completion\n${second.output()}`);
      expect(await state(undo.id)).toMatchObject({ processed_rows: changed, changed_rows: changed, skipped_rows: 0, undo_of: change.id });
      expect(await q(sql`SELECT count(*)::int AS n FROM subscribers WHERE subscription_status = 'pending'`)).toEqual([{ n: changed }]);
      expect(await q(sql`SELECT count(*)::int AS n FROM subscribers WHERE subscription_status = 'cancelled'`)).toEqual([{ n: ROWS / 4 }]);
      // The killed attempt's job expired and was tried again (more than once if the machine is slow).
      expect(await jobRetries(undo.id)).toBeGreaterThanOrEqual(1);
      const [counts] = await q<{ kept: number }>(sql`SELECT total AS kept FROM (SELECT sum(total)::int AS total FROM subscriber_status_counts WHERE subscription_status = 'pending') t`);
      expect(counts!.kept).toBe(changed);
      await kill(second);
    }, 300_000);

    it("a deletion's undo: killed mid-job, the rows restored so far are whole; the retry restores the rest", async () => {
      const change = await requestBulkChange(EVERY, admin, { filters: { is_mandatory: "true" } }, { delete: true });
      await runBulkChange(change.id);
      const [{ n: trashed }] = (await q<{ n: number }>(sql`SELECT count(*)::int AS n FROM subscriber_trash WHERE bulk_change_id = ${change.id}`)) as [{ n: number }];
      expect(trashed).toBe(Math.floor(ROWS / 7));
      const undo = await requestUndo(EVERY, admin, change.id);
      const first = spawnWorker(env);
      workers.push(first);
      await until(async () => (await state(undo.id)).processed_rows >= 300, 60_000, `progress\n${first.output()}`);
      await kill(first);
      const killed = await state(undo.id);
      const [half] = await q<{ live: number; trash: number }>(sql`SELECT
        (SELECT count(*)::int FROM subscribers WHERE is_mandatory) AS live, (SELECT count(*)::int FROM subscriber_trash) AS trash`);
      expect(half).toEqual({ live: killed.processed_rows, trash: trashed - killed.processed_rows });
      const second = spawnWorker(env);
      workers.push(second);
      await until(async () => (await state(undo.id)).status === "completed", 180_000, `completion\n${second.output()}`);
      expect(await state(undo.id)).toMatchObject({ changed_rows: trashed, skipped_rows: 0 });
      expect(await q(sql`SELECT count(*)::int AS n FROM subscribers WHERE is_mandatory`)).toEqual([{ n: trashed }]);
      expect(await q(sql`SELECT count(*)::int AS n FROM subscriber_trash`)).toEqual([{ n: 0 }]);
      const RULE = sql`(EXISTS (SELECT 1 FROM subscribers e WHERE lower(e.email) = lower(t.email) AND e.id < t.id)
        OR EXISTS (SELECT 1 FROM subscribers e WHERE e.mobile = t.mobile AND e.id < t.id))`;
      expect(await q(sql`SELECT t.id FROM subscribers t WHERE t.is_duplicate <> ${RULE} LIMIT 5`)).toEqual([]);
      await kill(second);
    }, 300_000);
  });
}
