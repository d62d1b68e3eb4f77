import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as importPOST } from "@/app/api/v1/subscribers/imports/route";
import type { Database } from "@/lib/db/client";
import { connection, sql } from "@/lib/db/sql";
import { actAs, createUsers, testDatabase } from "../helpers/db";
import { seedSubscribers } from "../helpers/export-data";
import { spawnWorker, until, type WorkerProcess } from "../helpers/export-process";
import { startJobWorker } from "@/lib/jobs/worker";
import { closeExportSuite, exportTestEnv, openExportSuite, type ExportSuite } from "../helpers/export-test";

// A real worker process SIGKILLed in the middle of an import: not one row of
// the import is in the table (only staging rows are left); a restarted worker takes the job once
// it expires and imports exactly the file's rows, each once. PostgreSQL only: an embedded
// database is opened by one process (there the job is handed back when the server restarts,
// which tests/integration/export-crash.test.ts shows for the queue they share).

const ROWS = 30_000;

const csvOf = (rows: number, tag: string) => {
  const lines = ["first_name,last_name,email,mobile,country_name"];
  for (let i = 0; i < rows; i++) lines.push(`C${i},Rash,${tag}${i}@example.com,+447400${String(i).padStart(6, "0")},GB`);
  return lines.join("\n");
};

async function upload(text: string, name: string) {
  const form = new FormData();
  form.set("file", new Blob([text]), name);
  const response = await importPOST(new Request("http://localhost/api/v1/subscribers/imports", { method: "POST", body: form }), {});
  expect(response.status).toBe(202);
  return ((await response.json()) as { id: string }).id;
}

// The embedded database: a server killed mid-import leaves the job active, the import running
// and some staging rows; the next start hands the job back, and it imports every row once.
describe("import after a killed server (pglite)", () => {
  let s: ExportSuite;
  beforeAll(async () => {
    s = await openExportSuite("pglite", 10);
  });
  afterAll(() => closeExportSuite(s));

  it("hands the interrupted import back when the worker starts, drops the staged rows, imports each row once", async () => {
    actAs(s.staff);
    const id = await upload(csvOf(500, "restart"), "Restart.csv");
    const conn = await connection();
    await conn.query(`UPDATE pgboss.job SET state = 'active', started_on = now() WHERE name = 'console-job' AND data->>'kind' = 'import'`);
    await conn.query(sql`UPDATE subscriber_imports SET status = 'running' WHERE id = ${id}`);
    await conn.query(sql`INSERT INTO import_rows (import_id, line, first_name, last_name, email, mobile, sheet, subscription_status, is_mandatory)
      SELECT ${id}, g, 'Half', 'Done', 'restart' || g || '@example.com', '+447911000001', 'Restart', 'pending', false FROM generate_series(2, 200) g`);
    expect((await conn.query(`SELECT 1 FROM subscribers WHERE email LIKE 'restart%'`)).length).toBe(0);
    await startJobWorker();
    await until(async () => (await conn.query<{ status: string }>(sql`SELECT status::text AS status FROM subscriber_imports WHERE id = ${id}`))[0]!.status === "completed", 30_000, "completion");
    const [row] = await conn.query<{ n: number; d: number; staged: number }>(`SELECT count(*)::int AS n, count(*) FILTER (WHERE is_duplicate)::int AS d,
      (SELECT count(*)::int FROM import_rows) AS staged FROM subscribers WHERE email LIKE 'restart%'`);
    expect(row).toEqual({ n: 500, d: 0, staged: 0 });
  });
});

if (process.env.TEST_DATABASE_URL) {
  describe("import worker crash (postgres)", () => {
    let database: Database;
    let dir: string;
    let user: Awaited<ReturnType<typeof createUsers>>["staff"];
    const workers: WorkerProcess[] = [];
    let env: Record<string, string>;

    beforeAll(async () => {
      dir = exportTestEnv();
      process.env.JOB_WORKER = "off"; // this process only uploads; the spawned ones work
      process.env.JOB_EXPIRE_SECONDS = "20";
      database = await testDatabase("postgres");
      await seedSubscribers((text) => database.prisma.$executeRawUnsafe(text), 10);
      user = (await createUsers(database)).staff;
      env = {
        DATABASE_URL: database.target.kind === "postgres" ? database.target.url : "",
        STORAGE_DIR: process.env.STORAGE_DIR!,
        IMPORT_BATCH_SIZE: "200",
        JOB_POLL_SECONDS: "1",
        JOB_MAINTENANCE_SECONDS: "1",
        JOB_EXPIRE_SECONDS: "20",
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

    const state = async (id: string) =>
      (await (await connection()).query<{ status: string; processed_rows: number; imported_rows: number; staged: number; in_table: number }>(sql`SELECT status::text AS status, processed_rows, imported_rows,
        (SELECT count(*)::int FROM import_rows WHERE import_id = ${id}) AS staged,
        (SELECT count(*)::int FROM subscribers s JOIN sheets sh ON sh.id = s.sheet_id WHERE sh.name = 'Crash') AS in_table
        FROM subscriber_imports WHERE id = ${id}`))[0]!;

    it("leaves nothing in the table when the worker is killed mid-import, and the restarted worker imports every row once", async () => {
      actAs(user);
      const id = await upload(csvOf(ROWS, "crash"), "Crash.csv");

      const first = spawnWorker(env);
      workers.push(first);
      await until(async () => (await state(id)).processed_rows > 1_000, 60_000, `progress\n${first.output()}`);
      first.child.kill("SIGKILL");
      await first.exited;
      const killed = await state(id);
      expect(killed).toMatchObject({ status: "running", in_table: 0 });
      expect(killed.staged).toBeGreaterThan(0);

      const second = spawnWorker(env);
      workers.push(second);
      await until(async () => (await state(id)).status === "completed", 180_000, `completion\n${second.output()}`);
      expect(await state(id)).toMatchObject({ imported_rows: ROWS, staged: 0, in_table: ROWS });
      const [dups] = await (await connection()).query<{ n: number; distinct_emails: number }>(sql`SELECT count(*) FILTER (WHERE is_duplicate)::int AS n,
        count(DISTINCT email)::int AS distinct_emails FROM subscribers WHERE email LIKE 'crash%'`);
      expect(dups).toEqual({ n: 0, distinct_emails: ROWS });
      // Exactly the file's rows, as the file has them: row i is C{i}, crash{i}@…, +447400{i}.
      const [matching] = await (await connection()).query<{ n: number }>(sql`SELECT count(*)::int AS n FROM subscribers s JOIN sheets sh ON sh.id = s.sheet_id
        CROSS JOIN LATERAL (SELECT substring(s.email FROM '^crash([0-9]+)@example\.com$')::int AS i) r
        WHERE sh.name = 'Crash' AND r.i < ${ROWS} AND s.first_name = 'C' || r.i AND s.last_name = 'Rash' AND s.mobile = '+447400' || lpad(r.i::text, 6, '0')`);
      expect(matching!.n).toBe(ROWS);
    }, 300_000);
  });
}
