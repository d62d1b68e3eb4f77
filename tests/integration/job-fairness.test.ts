import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as exportPOST } from "@/app/api/v1/subscribers/export/route";
import type { SessionUser } from "@/lib/auth/permissions";
import { connection } from "@/lib/db/sql";
import { newJobId } from "@/lib/jobs/ids";
import { queue } from "@/lib/jobs/queue";
import { startJobWorker, stopJobWorker } from "@/lib/jobs/worker";
import { bulkStatus, requestBulkChange } from "@/lib/subscribers/bulk";
import { actAs, testDbKinds } from "../helpers/db";
import { closeExportSuite, openExportSuite, postExport, waitForStatus, type ExportSuite } from "../helpers/export-test";
import { apiRequest } from "../helpers/http";
import { branchScope } from "@/lib/auth/scope";

const EVERY = branchScope({ role: "admin", branch_ids: null });

// One user's background work must not hold everyone else's (docs/decisions/0022-jobs-fair-per-user.md): a user has at
// most JOBS_PER_USER jobs queued or running (429 with Retry-After beyond, decided in the database),
// and a worker runs more jobs at once than that, so another user's small job starts at once and
// finishes while the first user's large ones still run. The large jobs here are bulk changes of
// every subscriber one row per transaction; the small one changes ten subscribers.

const ROWS = 4000;
const SMALL = 10;

const SETTINGS = { BULK_INLINE_MAX: "5", BULK_BATCH_SIZE: "1", JOBS_PER_USER: "2", JOB_CONCURRENCY: "3" };

for (const kind of testDbKinds()) {
  describe(`background jobs, one user beside another (${kind})`, () => {
    let s: ExportSuite;
    const q = async <T,>(text: string) => (await connection()).query<T>(text);
    const queuedJobs = async (user: SessionUser) =>
      (await q<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'console-job' AND state < 'completed' AND data->>'userId' = '${user.id}'`))[0]!.n;

    beforeAll(async () => {
      s = await openExportSuite(kind, ROWS);
      Object.assign(process.env, SETTINGS);
      await q(`INSERT INTO subscribers (first_name, last_name, email, mobile, subscription_status)
        SELECT 'S' || g, 'Fairsmall', 'fairsmall' || g || '@example.com', '+1777' || (1000 + g), 'active' FROM generate_series(1, ${SMALL}) g`);
    });
    afterAll(async () => {
      for (const name of Object.keys(SETTINGS)) delete process.env[name];
      actAs(null);
      await closeExportSuite(s);
    });

    it("refuses a user's jobs beyond JOBS_PER_USER, decided in the database for requests arriving together", async () => {
      // Six requests at once, each in a transaction of its own on its own connection (PostgreSQL),
      // as six web instances would send them: the user's lock and count in the database decide.
      const results = await Promise.allSettled(
        Array.from({ length: 6 }, (_, i) =>
          requestBulkChange(EVERY, s.staff, { filters: { is_mandatory: "false" } }, i % 2 === 0 ? { is_mandatory: true } : { subscription_status: "expired" }),
        ),
      );
      const queued = results.filter((r) => r.status === "fulfilled");
      const refused = results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason as { status: number; code: string; retryAfter: number });
      expect(queued).toHaveLength(2);
      expect(refused).toHaveLength(4);
      for (const error of refused) expect(error).toMatchObject({ status: 429, code: "too_many_jobs", retryAfter: expect.any(Number) });
      expect(await queuedJobs(s.staff)).toBe(2);

      // Every kind counts: an export request of the same user is refused over HTTP, with Retry-After.
      actAs(s.staff);
      const response = await exportPOST(apiRequest("/api/v1/subscribers/export", { method: "POST" }), {});
      expect(response.status).toBe(429);
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
      const body = (await response.json()) as { error: { code: string; message: string; limit: number } };
      expect(body.error).toMatchObject({ code: "too_many_jobs", limit: 2 });
      expect(body.error.message).toMatch(/2 background jobs/);
      expect(await queuedJobs(s.staff)).toBe(2);
      // Another user is not limited by them.
      expect((await postExport(s.admin)).status).toBe(202);
      await q(`DELETE FROM pgboss.job WHERE data->>'kind' = 'export'`);
      await q(`DELETE FROM subscriber_exports`);
    });

    it("finishes another user's small job within seconds while one user's large jobs run", async () => {
      const small = await requestBulkChange(EVERY, s.admin, { filters: { last_name: "Fairsmall" } }, { subscription_status: "pending" });
      expect(small).toMatchObject({ kind: "queued", total: SMALL });
      const [large1, large2] = (await q<{ id: string }>(`SELECT id FROM bulk_changes WHERE user_id = ${s.staff.id} ORDER BY created_at`)).map((r) => r.id);
      // The small job was queued last, behind the two large ones (and the admin's export).
      const started = Date.now();
      await startJobWorker();
      const id = (small as { id: string }).id;
      let status = await bulkStatus(s.admin, id);
      while (status.status !== "completed" && Date.now() - started < 20_000) {
        await new Promise((r) => setTimeout(r, 100));
        status = await bulkStatus(s.admin, id);
      }
      const took = Date.now() - started;
      expect(status).toMatchObject({ status: "completed", processed_rows: SMALL });
      const large = [await bulkStatus(s.staff, large1!), await bulkStatus(s.staff, large2!)];
      console.info(`small job done after ${took} ms; the large ones at ${large.map((l) => `${l.processed_rows}/${l.total_rows}`).join(", ")}`);
      // Both large jobs are still at work: the small one did not wait for either.
      for (const l of large) {
        expect(l.status).toBe("running");
        expect(l.processed_rows).toBeLessThan(l.total_rows);
      }
      expect(took).toBeLessThan(10_000);
    });

    it("works an export left in the queue of an earlier version, where each kind had its own", async () => {
      await stopJobWorker(1);
      const boss = await queue();
      await boss.createQueue("subscriber-export", { name: "subscriber-export" });
      const id = newJobId();
      const jobId = crypto.randomUUID();
      await q(`DELETE FROM subscriber_exports`);
      await q(`INSERT INTO subscriber_exports (id, user_id, status, filters, fresh, total_rows, job_id)
        VALUES ('${id}', ${s.admin.id}, 'in_queue', '{}'::jsonb, true, 0, '${jobId}')`);
      expect(await boss.send("subscriber-export", { exportId: id }, { id: jobId })).toBe(jobId);
      await startJobWorker();
      const done = await waitForStatus(s.admin, (st) => st.downloadable_file_status === "completed", 60_000);
      expect(done.total_rows).toBe(ROWS + SMALL);
    });
  });
}
