import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/client";
import { connection, sql } from "@/lib/db/sql";
import { readProblem } from "@/lib/i18n/problem";
import { problemsIn } from "@/lib/i18n/problems-in";
import { startJobWorker } from "@/lib/jobs/worker";
import { actAs, createUsers, testDatabase } from "../helpers/db";
import { seedSubscribers } from "../helpers/export-data";
import { spawnWorker, until, type WorkerProcess } from "../helpers/export-process";
import { columnValues } from "../helpers/xlsx-read";
import {
  closeExportSuite, exportTestEnv, openExportSuite, parseCsv, postExport, waitForStatus, type ExportSuite,
} from "../helpers/export-test";

// A real worker process killed with SIGKILL in the middle of an export: the export stays
// in_queue, and once the job expires a restarted worker completes it with exactly the right rows;
// with no retries left the export fails with a message and a new request is allowed. SIGTERM lets
// the running export finish. PostgreSQL only: an embedded database is opened by one process.

const ROWS = 100_000;

// The embedded database belongs to one process: a job still active when the server starts was
// its previous run's, and is handed back at once (no waiting for it to expire).
describe("export worker restart (pglite)", () => {
  let s: ExportSuite;
  beforeAll(async () => {
    s = await openExportSuite("pglite", 500);
  });
  afterAll(() => closeExportSuite(s));

  it("hands an interrupted job back when the worker starts, and completes it", async () => {
    expect((await postExport(s.staff)).status).toBe(202);
    const conn = await connection();
    // What a server killed mid-export leaves behind: the job active, the export in_queue.
    await conn.query(`UPDATE pgboss.job SET state = 'active', started_on = now() WHERE name = 'console-job' AND data->>'kind' = 'export'`);
    await startJobWorker();
    const done = await waitForStatus(s.staff, (st) => st.downloadable_file_status === "completed", 30_000);
    expect(done.total_rows).toBe(500);
    const [job] = await conn.query<{ retry_count: number }>(`SELECT retry_count FROM pgboss.job WHERE name = 'console-job' AND data->>'kind' = 'export'`);
    expect(job!.retry_count).toBe(1);
  });
});

if (process.env.TEST_DATABASE_URL) {
  describe("export worker crash (postgres)", () => {
    let database: Database;
    let dir: string;
    let user: Awaited<ReturnType<typeof createUsers>>["staff"];
    const workers: WorkerProcess[] = [];
    let env: Record<string, string>;

    beforeAll(async () => {
      dir = exportTestEnv();
      process.env.JOB_WORKER = "off"; // this process only requests; the spawned ones work
      process.env.JOB_EXPIRE_SECONDS = "25"; // job settings are the requester's
      database = await testDatabase("postgres");
      await seedSubscribers((text) => database.prisma.$executeRawUnsafe(text), ROWS);
      user = (await createUsers(database)).staff;
      env = {
        DATABASE_URL: database.target.kind === "postgres" ? database.target.url : "",
        STORAGE_DIR: process.env.STORAGE_DIR!,
        EXPORT_BATCH_SIZE: "100",
        JOB_POLL_SECONDS: "1",
        JOB_MAINTENANCE_SECONDS: "1",
        JOB_EXPIRE_SECONDS: "25",
        JOB_RETRY_DELAY_SECONDS: "0",
      };
    });
    afterAll(async () => {
      for (const w of workers) w.child.kill("SIGKILL");
      await Promise.all(workers.map((w) => w.exited));
      delete process.env.JOB_WORKER;
      delete process.env.JOB_EXPIRE_SECONDS;
      await closeExportSuite({ database, dir, staff: user, admin: user });
    });

    const start = (extra: Record<string, string> = {}) => {
      const w = spawnWorker({ ...env, ...extra });
      workers.push(w);
      return w;
    };
    const row = async (id: string) =>
      (await (await connection()).query<{ status: string; processed_rows: number; total_rows: number; error: string | null }>(
        sql`SELECT status::text AS status, processed_rows, total_rows, error FROM subscriber_exports WHERE id = ${id}`))[0]!;
    const request = async (format: "csv" | "xlsx" = "csv") => {
      const { status } = await postExport(user, { format });
      expect(status).toBe(202);
      const [r] = await (await connection()).query<{ id: string }>(
        sql`SELECT id FROM subscriber_exports WHERE user_id = ${user.id} AND status = 'in_queue'`);
      return r!.id;
    };
    const killMidJob = async (id: string, w: WorkerProcess) => {
      await until(async () => (await row(id)).processed_rows > 0, 30_000, `progress\n${w.output()}`);
      w.child.kill("SIGKILL");
      await w.exited;
      const after = await row(id);
      expect(after.status).toBe("in_queue");
      expect(after.processed_rows).toBeLessThan(ROWS);
      for (const ext of ["csv", "xlsx"]) expect(fs.existsSync(path.join(env.STORAGE_DIR!, "exports", `${id}.${ext}`))).toBe(false);
    };

    it("completes with exactly the right rows after the worker is killed mid-job and restarted", async () => {
      const id = await request();
      await killMidJob(id, start());
      const second = start();
      await until(async () => (await row(id)).status === "completed", 240_000, `completion\n${second.output()}`);
      expect(await row(id)).toMatchObject({ processed_rows: ROWS, total_rows: ROWS });
      const [header, ...rows] = parseCsv(fs.readFileSync(path.join(env.STORAGE_DIR!, "exports", `${id}.csv`), "utf8"));
      expect(header![0]).toBe("id");
      expect(rows.map((r) => Number(r[0]))).toEqual(Array.from({ length: ROWS }, (_, i) => i + 1));
      const [job] = await (await connection()).query<{ retry_count: number }>(sql`SELECT retry_count FROM pgboss.job WHERE id::text = (SELECT job_id FROM subscriber_exports WHERE id = ${id})`);
      expect(job!.retry_count).toBe(1);
      // SIGTERM: the running export is finished before the process exits.
      const next = await request();
      await until(async () => (await row(next)).processed_rows > 0, 30_000, "progress");
      second.child.kill("SIGTERM");
      expect(await second.exited).toBe(0);
      expect((await row(next)).status).toBe("completed");
    }, 360_000);

    it("completes an Excel export after the worker is killed mid-job: one whole workbook with exactly the right rows", async () => {
      const id = await request("xlsx");
      await killMidJob(id, start());
      const second = start();
      await until(async () => (await row(id)).status === "completed", 240_000, `completion\n${second.output()}`);
      expect(await row(id)).toMatchObject({ processed_rows: ROWS, total_rows: ROWS });
      const { sheets, values } = await columnValues(fs.readFileSync(path.join(env.STORAGE_DIR!, "exports", `${id}.xlsx`)));
      expect(sheets).toEqual(["Subscribers"]);
      expect(values.map(Number)).toEqual(Array.from({ length: ROWS }, (_, i) => i + 1));
      second.child.kill("SIGTERM");
      expect(await second.exited).toBe(0);
    }, 360_000);

    it("fails the export with a message when a crash leaves no retry, and allows a new request", async () => {
      process.env.JOB_RETRY_LIMIT = "0";
      const id = await request().finally(() => delete process.env.JOB_RETRY_LIMIT);
      await killMidJob(id, start());
      const w = start();
      const failed = await until(async () => ((await row(id)).status === "failed" ? row(id) : null), 240_000, `failure\n${w.output()}`);
      // Why, as a problem key with the job's own error as its value, said in the reader's words.
      expect(readProblem(failed.error!)).toEqual({ key: "export.failedAfter", values: { attempts: 1, reason: expect.stringMatching(/^job failed by timeout/) } });
      expect(problemsIn("en")(failed.error!)).toMatch(/^The export could not be completed after 1 attempt \(job failed by timeout/);
      expect(problemsIn("fr")(failed.error!)).toMatch(/^L’export n’a pas pu être terminé après 1 tentative \(job failed by timeout/);
      actAs(user);
      await request();
    }, 360_000);
  });
}
