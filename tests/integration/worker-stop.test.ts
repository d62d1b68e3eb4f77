import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/client";
import { connection, sql } from "@/lib/db/sql";
import { createUsers, testDatabase } from "../helpers/db";
import { seedSubscribers } from "../helpers/export-data";
import { spawnWorker, until, type WorkerProcess } from "../helpers/export-process";
import { closeExportSuite, exportTestEnv, parseCsv, postExport } from "../helpers/export-test";

// A job worker stopped (SIGTERM) while it holds a job, as a rolling upgrade stops it: the job
// either finishes before the process exits, or, past the stop's time, is handed back and finished
// by the next worker; either way it is done exactly once. A lock the test holds on the
// subscribers, or batches of ten rows, keep the job running for as long as the test needs.
// PostgreSQL only.

const ROWS = 20_000;

if (process.env.TEST_DATABASE_URL) {
  describe("job worker stop (postgres)", () => {
    let database: Database;
    let dir: string;
    let user: Awaited<ReturnType<typeof createUsers>>["staff"];
    let env: Record<string, string>;
    let lock: pg.Client;
    const workers: WorkerProcess[] = [];

    beforeAll(async () => {
      dir = exportTestEnv();
      process.env.JOB_WORKER = "off"; // this process only requests; the spawned ones work
      process.env.JOB_RETRY_DELAY_SECONDS = "0"; // job settings are the requester's
      database = await testDatabase("postgres");
      await seedSubscribers((text) => database.prisma.$executeRawUnsafe(text), ROWS);
      user = (await createUsers(database)).staff;
      const url = database.target.kind === "postgres" ? database.target.url : "";
      env = { DATABASE_URL: url, STORAGE_DIR: process.env.STORAGE_DIR!, JOB_POLL_SECONDS: "1", JOB_MAINTENANCE_SECONDS: "1", DATABASE_STATEMENT_TIMEOUT_MS: "30000" };
      lock = new pg.Client({ connectionString: url });
      await lock.connect();
    }, 60_000);
    afterAll(async () => {
      for (const w of workers) w.child.kill("SIGKILL");
      await Promise.all(workers.map((w) => w.exited));
      await lock?.end();
      delete process.env.JOB_WORKER;
      delete process.env.JOB_RETRY_DELAY_SECONDS;
      await closeExportSuite({ database, dir, staff: user, admin: user });
    });

    const start = (extra: Record<string, string> = {}) => {
      const w = spawnWorker({ ...env, ...extra });
      workers.push(w);
      return w;
    };
    const exportRow = async (id: string) =>
      (await (await connection()).query<{ status: string; processed_rows: number }>(sql`SELECT status::text AS status, processed_rows FROM subscriber_exports WHERE id = ${id}`))[0]!;
    const job = async (id: string) =>
      (await (await connection()).query<{ state: string; retry_count: number }>(
        sql`SELECT state::text AS state, retry_count FROM pgboss.job WHERE id::text = (SELECT job_id FROM subscriber_exports WHERE id = ${id})`,
      ))[0]!;
    /** An export queued while the subscribers are locked: the worker that takes it waits on the lock. */
    const heldExport = async () => {
      await lock.query("BEGIN");
      await lock.query("LOCK TABLE subscribers IN ACCESS EXCLUSIVE MODE");
      expect((await postExport(user)).status).toBe(202);
      const [r] = await (await connection()).query<{ id: string }>(sql`SELECT id FROM subscriber_exports WHERE user_id = ${user.id} AND status = 'in_queue'`);
      return r!.id;
    };
    const fileRows = (id: string) => parseCsv(fs.readFileSync(path.join(env.STORAGE_DIR!, "exports", `${id}.csv`), "utf8")).length - 1;

    it("finishes the job it holds before it exits", async () => {
      const id = await heldExport();
      const w = start({ SHUTDOWN_TIMEOUT_SECONDS: "30" });
      await until(async () => (await job(id)).state === "active", 20_000, `the job to start\n${w.output()}`);
      w.child.kill("SIGTERM");
      await new Promise((r) => setTimeout(r, 500));
      expect(w.child.exitCode).toBeNull(); // still finishing
      await lock.query("COMMIT");
      expect(await w.exited, w.output()).toBe(0);
      expect(await exportRow(id)).toMatchObject({ status: "completed", processed_rows: ROWS });
      expect(await job(id)).toMatchObject({ state: "completed", retry_count: 0 });
      expect(fileRows(id)).toBe(ROWS);
    }, 60_000);

    it("hands the job back past its stop time, and the next worker finishes it once", async () => {
      expect((await postExport(user)).status).toBe(202);
      const [r] = await (await connection()).query<{ id: string }>(sql`SELECT id FROM subscriber_exports WHERE user_id = ${user.id} AND status = 'in_queue'`);
      const id = r!.id;
      const first = start({ SHUTDOWN_TIMEOUT_SECONDS: "1", EXPORT_BATCH_SIZE: "10" });
      await until(async () => (await exportRow(id)).processed_rows > 0, 20_000, `the job to start\n${first.output()}`);
      first.child.kill("SIGTERM");
      const code = await Promise.race([first.exited, new Promise((resolve) => setTimeout(() => resolve("still running"), 15_000))]);
      expect(code, first.output()).toBe(0);
      expect((await job(id)).state).toBe("retry"); // handed back, not lost and not failed
      expect((await exportRow(id)).status).toBe("in_queue");
      const second = start();
      await until(async () => (await exportRow(id)).status === "completed", 30_000, `completion\n${second.output()}`);
      expect(await exportRow(id)).toMatchObject({ processed_rows: ROWS });
      await until(async () => (await job(id)).state === "completed", 10_000, "the job to be completed");
      expect((await job(id)).retry_count).toBe(1);
      expect(fileRows(id)).toBe(ROWS);
      second.child.kill("SIGTERM");
      expect(await second.exited).toBe(0);
    }, 90_000);
  });
}
