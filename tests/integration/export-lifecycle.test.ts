import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as exportGET } from "@/app/api/v1/subscribers/export/route";
import { purgeExports } from "@/lib/export/purge";
import { problem, readProblem } from "@/lib/i18n/problem";
import { connection, sql } from "@/lib/db/sql";
import { LEGACY_PURGE_QUEUE, PURGE_QUEUE, queue } from "@/lib/jobs/queue";
import { startJobWorker, stopJobWorker } from "@/lib/jobs/worker";
import type { SessionUser } from "@/lib/auth/permissions";
import { actAs, testDbKinds } from "../helpers/db";
import { closeExportSuite, download, getStatus, openExportSuite, postExport, waitForStatus, type ExportSuite } from "../helpers/export-test";
import { apiRequest } from "../helpers/http";

// Failure after the last retry (the export is failed with a message, a new request is allowed),
// and the scheduled purge of unused exports and stray files.

for (const kind of testDbKinds()) {
  describe(`subscriber export lifecycle (${kind})`, () => {
    let s: ExportSuite;
    let goodDir: string;
    beforeAll(async () => {
      s = await openExportSuite(kind, 300);
      goodDir = process.env.STORAGE_DIR!;
      process.env.JOB_RETRY_LIMIT = "1";
      await startJobWorker();
    });
    afterAll(async () => {
      delete process.env.JOB_RETRY_LIMIT;
      await closeExportSuite(s);
    });
    /** The export status's error as the API says it in French. */
    const frenchError = async (user: SessionUser) => {
      actAs(user);
      return ((await (await exportGET(apiRequest("/api/v1/subscribers/export", { headers: { "accept-language": "fr" } }), {})).json()) as { error: string | null }).error;
    };

    it("fails the export with a message once its retries are exhausted, then allows a new request", async () => {
      // A file where the folder should be: every attempt fails to write.
      const blocked = path.join(s.dir, "not-a-folder");
      fs.writeFileSync(blocked, "");
      process.env.STORAGE_DIR = path.join(blocked, "files");
      try {
        expect((await postExport(s.staff)).status).toBe(202);
        const failed = await waitForStatus(s.staff, (st) => st.downloadable_file_status === "failed");
        expect(failed.error).toMatch(/^The export could not be completed after 2 attempts \(.+\)\. Request it again\.$/s);
        expect(failed.downloadable_file).toBeNull();
        // Kept as a problem key with the worker's error as its value; French to a French reader.
        const [row] = await (await connection()).query<{ error: string }>(sql`SELECT error FROM subscriber_exports WHERE user_id = ${s.staff.id} AND status = 'failed'`);
        expect(readProblem(row!.error)).toEqual({ key: "export.failedAfter", values: { attempts: 2, reason: expect.any(String) } });
        expect(await frenchError(s.staff)).toMatch(/^L’export n’a pas pu être terminé après 2 tentatives \(.+\)\. Demandez-le à nouveau\.$/s);
      } finally {
        process.env.STORAGE_DIR = goodDir;
      }
      const conn = await connection();
      const [job] = await conn.query<{ state: string; retry_count: number }>(
        `SELECT state::text AS state, retry_count FROM pgboss.job WHERE name = 'console-job' AND data->>'kind' = 'export'`,
      );
      expect(job).toEqual({ state: "failed", retry_count: 1 });

      expect((await postExport(s.staff)).status).toBe(202);
      const done = await waitForStatus(s.staff, (st) => st.downloadable_file_status === "completed");
      expect(done.total_rows).toBe(300);
    });

    it("schedules the clean-up once, under its own name, removing an older version's schedule", async () => {
      const schedules = async () => (await (await connection()).query<{ name: string; cron: string }>(sql`SELECT name, cron FROM pgboss.schedule ORDER BY name`)).map((r) => r.name);
      expect(await schedules()).toEqual([PURGE_QUEUE]);
      // As an older version left it: the clean-up scheduled under the queue's former name.
      const boss = await queue();
      await boss.createQueue(LEGACY_PURGE_QUEUE, { name: LEGACY_PURGE_QUEUE });
      await boss.schedule(LEGACY_PURGE_QUEUE, "*/15 * * * *");
      expect(await schedules()).toEqual([PURGE_QUEUE, LEGACY_PURGE_QUEUE].sort());
      await stopJobWorker();
      await startJobWorker();
      expect(await schedules()).toEqual([PURGE_QUEUE]);
    });

    it("purges exports unused for the retention time, with their files, and stray files", async () => {
      const { downloadable_file } = await postExport(s.admin).then(() =>
        waitForStatus(s.admin, (st) => st.downloadable_file_status === "completed"),
      );
      const conn = await connection();
      const [adminExport] = await conn.query<{ id: string }>(sql`SELECT id FROM subscriber_exports WHERE user_id = ${s.admin.id}`);
      fs.mkdirSync(path.join(goodDir, "exports"), { recursive: true });
      const stray = path.join(goodDir, "exports", "AAAAAAAAAAAAAAAAAAAAAA.csv");
      const temp = path.join(goodDir, "exports", ".BBBBBBBBBBBBBBBBBBBBBB.csv.123.0badc0de.tmp");
      for (const f of [stray, temp]) fs.writeFileSync(f, "x");
      const old = new Date(Date.now() - 2 * 3600 * 1000);
      for (const f of [stray, temp]) fs.utimesSync(f, old, old);
      await conn.query(
        sql`UPDATE subscriber_exports SET created_at = now() - interval '30 days', completed_at = now() - interval '30 days',
         downloaded_at = NULL WHERE user_id = ${s.admin.id}`);

      const result = await purgeExports();
      expect(result).toMatchObject({ purged: 1, strays: 2 });
      expect(fs.existsSync(path.join(goodDir, `${adminExport!.id}.csv`))).toBe(false);
      expect(fs.existsSync(stray) || fs.existsSync(temp)).toBe(false);
      expect((await download(s.admin, downloadable_file!)).status).toBe(404);
      // The staff's recent export is kept.
      const kept = await conn.query(sql`SELECT id FROM subscriber_exports WHERE user_id = ${s.staff.id} AND status = 'completed'`);
      expect(kept).toHaveLength(1);
    });

    it("fails an export whose job was lost, saying so in the reader's language", async () => {
      const conn = await connection();
      await conn.query(sql`INSERT INTO subscriber_exports (id, user_id, status, fresh, job_id, created_at)
        VALUES ('lostexport000000000000', ${s.admin.id}, 'in_queue', false, 'no-such-job', now() - interval '20 minutes')`);
      // (The scheduled clean-up may find it first: either way it is failed so.)
      await purgeExports();
      expect(await conn.query(sql`SELECT status::text AS status, error FROM subscriber_exports WHERE id = 'lostexport000000000000'`)).toEqual([
        { status: "failed", error: problem("export.jobLost") },
      ]);
      expect((await getStatus(s.admin)).error).toBe("The export job was lost. Request it again.");
      expect(await frenchError(s.admin)).toBe("La tâche d’export a été perdue. Demandez l’export à nouveau.");
    });
  });
}
