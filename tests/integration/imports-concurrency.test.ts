import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { POST as subscribersPOST } from "@/app/api/v1/subscribers/route";
import { POST as importPOST } from "@/app/api/v1/subscribers/imports/route";
import type { SessionUser } from "@/lib/auth/permissions";
import { connection, sql } from "@/lib/db/sql";
import { previewAgain, startImport } from "@/lib/imports/imports";
import { runImport } from "@/lib/imports/run";
import { AppError } from "@/lib/errors";
import { LOCK_IMPORT } from "@/lib/subscribers/duplicates";
import { createSubscriber } from "@/lib/subscribers/mutations";
import { actAs } from "../helpers/db";
import { until } from "../helpers/export-process";
import { closeExportSuite, openExportSuite, type ExportSuite } from "../helpers/export-test";
import { apiRequest } from "../helpers/http";
import { branchScope } from "@/lib/auth/scope";
import { waitingForLocks } from "../helpers/postgres";

const EVERY = branchScope({ role: "admin", branch_ids: null });

// Two imports at the same time, and an import beside the creation form, never miss a duplicate,
// shown with the attempts really overlapping on PostgreSQL: the first import
// is held INSIDE its inserting transaction (a barrier: another connection's uncommitted row of the
// sheet it inserts), holding the import lock, while the second import reads, checks and stages
// its whole file and then waits for that lock, and a creation of the same person waits for it
// too. Released, each decides its duplicates after the one before it committed. A creation that
// waits longer than IMPORT_LOCK_WAIT_MS answers 503 `import_in_progress` with Retry-After.
// PostgreSQL only: on the embedded database one connection runs one transaction at a time, so
// nothing there can overlap (the same scenario run one after the other is in imports.test.ts).

const HEADER = "first_name,last_name,email,mobile";

async function upload(user: SessionUser, text: string, name: string): Promise<string> {
  actAs(user);
  const form = new FormData();
  form.set("file", new Blob([text]), name);
  const response = await importPOST(new Request("http://localhost/api/v1/subscribers/imports", { method: "POST", body: form }), {});
  expect(response.status, await response.clone().text()).toBe(202);
  return ((await response.json()) as { id: string }).id;
}

/** The import lock as pg_locks shows it: held or waited for, exclusively (imports) or shared (creations). */
async function importLock(mode: "ExclusiveLock" | "ShareLock", granted: boolean): Promise<number> {
  const conn = await connection();
  const [row] = await conn.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM pg_locks
    WHERE locktype = 'advisory' AND classid = ${LOCK_IMPORT} AND objid = 0 AND objsubid = 2 AND mode = ${mode} AND granted = ${granted}`);
  return row!.n;
}

if (process.env.TEST_DATABASE_URL) {
  describe("imports beside each other and beside the creation form (postgres)", () => {
    let s: ExportSuite;
    let barrier: pg.Client;

    beforeAll(async () => {
      // Its imports are run here by hand (runImport), with no worker: their queued jobs stay
      // queued and would count toward the user's JOBS_PER_USER (tests/integration/job-fairness.test.ts).
      Object.assign(process.env, { JOBS_PER_USER: "10", JOB_CONCURRENCY: "11" });
      s = await openExportSuite("postgres", 10);
      if (s.database.target.kind !== "postgres") throw new Error("a PostgreSQL database was expected");
      barrier = new pg.Client({ connectionString: s.database.target.url });
      await barrier.connect();
    });
    afterAll(async () => {
      delete process.env.IMPORT_LOCK_WAIT_MS;
      delete process.env.JOBS_PER_USER;
      delete process.env.JOB_CONCURRENCY;
      await barrier?.end();
      await closeExportSuite(s);
    });

    it("holds the first import inside its transaction while a second import and a creation wait: every duplicate is marked", async () => {
      process.env.IMPORT_LOCK_WAIT_MS = "60000";
      // Both files share shared0..shared4 (email) and one mobile; each has rows of its own.
      const rows = (tag: string, mobile: number) =>
        [
          HEADER,
          ...Array.from({ length: 5 }, (_, i) => `${tag}${i},Shared,shared${i}@example.com,+4479112${mobile}${String(i).padStart(4, "0")}`),
          `${tag}own,Own,${tag}-own@example.com,+447911230001`, // the same mobile in both files
          `${tag}solo,Solo,${tag}-solo@example.com,+44791124${mobile}000`,
        ].join("\n");
      const first = await upload(s.staff, rows("a", 1), "Overlap first.csv");
      const second = await upload(s.admin, rows("b", 2), "Overlap second.csv");

      // The barrier: the first import's sheet, inserted and not committed by another connection.
      await barrier.query("BEGIN");
      await barrier.query(`INSERT INTO sheets (name) VALUES ('Overlap first')`);
      const firstRun = runImport(first);
      // It reaches its inserting transaction: the import lock is held, exclusively.
      await until(async () => (await importLock("ExclusiveLock", true)) === 1, 20_000, "the first import inside its transaction");

      // The second import reads and stages its whole file meanwhile, then waits for the lock.
      const secondRun = runImport(second);
      await until(async () => (await importLock("ExclusiveLock", false)) === 1, 20_000, "the second import waiting");
      const conn = await connection();
      const staged = await conn.query<{ import_id: string; n: number }>(sql`SELECT import_id, count(*)::int AS n FROM import_rows GROUP BY import_id ORDER BY n`);
      expect(staged).toEqual(expect.arrayContaining([{ import_id: second, n: 7 }]));

      // The creation form, for the person of shared0: waits for the import too (shared lock).
      const created = createSubscriber(EVERY, 
        { first_name: "Form", last_name: "Shared", email: "SHARED0@example.com", mobile: "+447911250001", country_id: null, branch_id: null, sheet_name: null, travel_date: null, subscription_status: "pending", is_mandatory: false },
        s.staff,
      );
      await until(async () => (await importLock("ShareLock", false)) === 1, 20_000, "the creation waiting");
      expect(await conn.query(`SELECT 1 FROM subscribers WHERE email ILIKE 'shared%' OR email LIKE '_-own@%'`)).toHaveLength(0);

      await barrier.query("ROLLBACK");
      const [a, b, c] = await Promise.all([firstRun, secondRun, created]);
      expect(a).toEqual({ total: 7, imported: 7, rejected: 0, duplicates: 0 });
      expect(b).toEqual({ total: 7, imported: 7, rejected: 0, duplicates: 6 });
      expect(c.is_duplicate).toBe(true);

      const flags = await conn.query<{ first_name: string; is_duplicate: boolean }>(
        `SELECT first_name, is_duplicate FROM subscribers WHERE email ILIKE 'shared%' OR email LIKE '_-own@%' OR email LIKE '_-solo@%' ORDER BY first_name`);
      expect(flags).toEqual([
        { first_name: "Form", is_duplicate: true },
        ...["a0", "a1", "a2", "a3", "a4", "aown", "asolo"].map((first_name) => ({ first_name, is_duplicate: false })),
        ...["b0", "b1", "b2", "b3", "b4", "bown"].map((first_name) => ({ first_name, is_duplicate: true })),
        { first_name: "bsolo", is_duplicate: false },
      ]);
      expect(await conn.query(`SELECT 1 FROM import_rows`)).toHaveLength(0);
    });

    it("stops an attempt outlived by its retry (a job expired while its worker still ran): the file is imported once, exactly", async () => {
      process.env.IMPORT_LOCK_WAIT_MS = "60000";
      const file = [HEADER, ...Array.from({ length: 12 }, (_, i) => `R${i},Twice,twice${i}@example.com,+4479112600${String(i).padStart(2, "0")}`)].join("\n");
      const id = await upload(s.staff, file, "Twice.csv");
      // The first attempt reads and stages the file, then is held at its inserting transaction's
      // lock (another connection holds it), as a worker past its job's expiry might be.
      await barrier.query(`SELECT pg_advisory_lock(${LOCK_IMPORT}, 0)`);
      onTestFinished(async () => {
        await barrier.query(`SELECT pg_advisory_unlock_all()`);
      });
      const stale = runImport(id);
      await until(async () => (await importLock("ExclusiveLock", false)) === 1, 20_000, "the first attempt at its insert");
      // Its retry starts meanwhile: a new attempt, reading the file from its first row.
      const retry = runImport(id);
      await until(async () => (await importLock("ExclusiveLock", false)) === 2, 20_000, "the retry at its insert");
      const conn = await connection();
      // The retry dropped the first attempt's staging rows and staged its own, under its number.
      expect(await conn.query(sql`SELECT attempt, count(*)::int AS n FROM import_rows WHERE import_id = ${id} GROUP BY attempt ORDER BY attempt`)).toEqual([{ attempt: 2, n: 12 }]);
      await barrier.query(`SELECT pg_advisory_unlock(${LOCK_IMPORT}, 0)`);
      // The first attempt, a newer one having started, inserts nothing; the retry inserts its own rows.
      expect(await stale).toEqual({ skipped: "a newer attempt of the import took it over" });
      expect(await retry).toEqual({ total: 12, imported: 12, rejected: 0, duplicates: 0 });
      expect(await conn.query(`SELECT first_name, email, is_duplicate FROM subscribers WHERE last_name = 'Twice' ORDER BY id`)).toEqual(
        Array.from({ length: 12 }, (_, i) => ({ first_name: `R${i}`, email: `twice${i}@example.com`, is_duplicate: false })),
      );
      expect(await conn.query(sql`SELECT status::text AS status, imported_rows, attempt FROM subscriber_imports WHERE id = ${id}`)).toEqual([{ status: "completed", imported_rows: 12, attempt: 2 }]);
      expect(await conn.query(`SELECT 1 FROM import_rows`)).toHaveLength(0);
      // And an attempt that starts after the import completed does nothing.
      expect(await runImport(id)).toEqual({ skipped: "the import is completed" });
    });

    it("answers a creation that waited IMPORT_LOCK_WAIT_MS for an import's insert 503 import_in_progress, with Retry-After, and creates nothing", async () => {
      process.env.IMPORT_LOCK_WAIT_MS = "300";
      const id = await upload(s.staff, [HEADER, "Held,Row,held@example.com,+447911250003"].join("\n"), "Held.csv");
      await barrier.query("BEGIN");
      await barrier.query(`INSERT INTO sheets (name) VALUES ('Held')`);
      const run = runImport(id);
      try {
        await until(async () => (await importLock("ExclusiveLock", true)) === 1, 20_000, "the import inside its transaction");
        actAs(s.staff);
        const started = Date.now();
        const response = await subscribersPOST(apiRequest("/api/v1/subscribers", { method: "POST", json: { first_name: "Waits", last_name: "Form", email: "waits@example.com", mobile: "+447911250002", subscription_status: "pending", is_mandatory: false } }), {});
        expect(Date.now() - started).toBeLessThan(10_000);
        expect(response.status, await response.clone().text()).toBe(503);
        expect(response.headers.get("retry-after")).toBe("5");
        expect(await response.json()).toMatchObject({ error: { code: "import_in_progress", message: expect.stringMatching(/An import is adding its rows/) } });
      } finally {
        await barrier.query("ROLLBACK");
      }
      expect(await run).toMatchObject({ imported: 1 });
      const conn = await connection();
      expect(await conn.query(`SELECT 1 FROM subscribers WHERE email = 'waits@example.com'`)).toHaveLength(0);
      // With the import done, the same creation goes through at once.
      actAs(s.staff);
      const again = await subscribersPOST(apiRequest("/api/v1/subscribers", { method: "POST", json: { first_name: "Waits", last_name: "Form", email: "waits@example.com", mobile: "+447911250002", subscription_status: "pending", is_mandatory: false } }), {});
      expect(again.status).toBe(201);
    });

    it("does not start an import while another tab's preview of it has begun, nor preview one started meanwhile: 409 each", async () => {
      actAs(s.staff);
      const form = new FormData();
      form.set("file", new Blob([`${HEADER}\nTab,One,tab.one@example.com,+447911260001`]), "Two tabs.csv");
      form.set("dry_run", "true");
      const previewed = await importPOST(new Request("http://localhost/api/v1/subscribers/imports", { method: "POST", body: form }), {});
      expect(previewed.status, await previewed.clone().text()).toBe(200);
      const id = ((await previewed.json()) as { id: string; status: string }).id;
      const row = async () => (await (await connection()).query<{ status: string; dry_run: boolean }>(sql`SELECT status::text, dry_run FROM subscriber_imports WHERE id = ${id}`))[0];
      expect(await row()).toEqual({ status: "completed", dry_run: true });
      const refusal = (work: Promise<unknown>) => work.then(() => null, (error: unknown) => (AppError.is(error) ? `${error.status} ${error.code}` : error));
      const waiting = () => waitingForLocks(barrier);

      // The other tab's preview has set the row running, not yet committed: Start read it completed and waits for the row.
      await barrier.query("BEGIN");
      await barrier.query("UPDATE subscriber_imports SET status = 'running' WHERE id = $1", [id]);
      const starting = refusal(startImport(s.staff, id));
      await expect.poll(waiting, { timeout: 10_000 }).toBe(1);
      await barrier.query("COMMIT");
      expect(await starting).toBe("409 busy");
      expect(await row()).toEqual({ status: "running", dry_run: true });
      expect(await (await connection()).query(sql`SELECT 1 FROM pgboss.job WHERE data->>'id' = ${id}`)).toEqual([]);

      // The other way round: the import started in the other tab (not yet committed) while this tab previews again.
      await (await connection()).query(sql`UPDATE subscriber_imports SET status = 'completed' WHERE id = ${id}`);
      await barrier.query("BEGIN");
      await barrier.query("UPDATE subscriber_imports SET dry_run = false, status = 'in_queue' WHERE id = $1", [id]);
      const previewing = refusal(previewAgain(s.staff, id, { mapping: ["first_name", "last_name", "email", "mobile"], worksheet: null, sheet_name: null }));
      await expect.poll(waiting, { timeout: 10_000 }).toBe(1);
      await barrier.query("COMMIT");
      expect(await previewing).toBe("409 already_started");
      expect(await row()).toEqual({ status: "in_queue", dry_run: false });
    });
  });
}
