import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { requestExportAction } from "@/app/(console)/subscribers/export-actions";
import { EXPORT_COLUMNS, neutralised } from "@/lib/export/csv";
import { queue } from "@/lib/jobs/queue";
import { connection } from "@/lib/db/sql";
import { startJobWorker } from "@/lib/jobs/worker";
import { subscriberFiltersSchema } from "@/lib/subscribers/filters";
import { listSubscribers } from "@/lib/subscribers/queries";
import { actAs, testDbKinds } from "../helpers/db";
import {
  closeExportSuite, download, getStatus, openExportSuite, parseCsv, postExport, waitForStatus, type ExportSuite,
} from "../helpers/export-test";
import { branchScope } from "@/lib/auth/scope";

const EVERY = branchScope({ role: "admin", branch_ids: null });

// How many times an export request counted its rows (20 simultaneous requests each
// counted every row before 19 of them were refused).
const counted = vi.hoisted(() => ({ times: 0 }));
vi.mock("@/lib/subscribers/queries", async (importOriginal) => {
  const queries = await importOriginal<typeof import("@/lib/subscribers/queries")>();
  return {
    ...queries,
    subscriberCountSql: (...args: Parameters<typeof queries.subscriberCountSql>) => {
      counted.times++;
      return queries.subscriberCountSql(...args);
    },
  };
});

// Request → in_queue (409 meanwhile, one job for 20 concurrent requests) → completed → download,
// on PGlite and on PostgreSQL, through the route handlers and the server action.

const ROWS = 5000;
const FILTERS = { is_mandatory: "true", sheet: "spring", page: "3", sort: "-email" };

for (const kind of testDbKinds()) {
  describe(`subscriber export (${kind})`, () => {
    let s: ExportSuite;
    beforeAll(async () => {
      s = await openExportSuite(kind, ROWS);
    });
    afterAll(() => closeExportSuite(s));

    const jobCount = async () =>
      (await (await connection()).query<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'console-job' AND data->>'kind' = 'export'`))[0]!.n;

    it("reports nothing requested yet", async () => {
      expect(await getStatus(s.staff)).toMatchObject({
        downloadable_file: null, downloadable_file_status: null, fresh_download_file: true, progress: 0,
      });
    });

    it("counts a request through the list's fast path: an unfiltered one reads the trigger-kept totals", async () => {
      const conn = await connection();
      const [{ n: real } = { n: 0 }] = await conn.query<{ n: number }>(`SELECT count(*)::int AS n FROM subscribers`);
      // A counter out of step with the table shows which of the two the request read.
      await conn.query(`UPDATE subscriber_status_counts SET total = total + 1000 WHERE subscription_status = 'active' AND NOT is_duplicate AND NOT is_mandatory`);
      try {
        expect(await postExport(s.admin, {})).toMatchObject({ status: 202 });
        const [row] = await conn.query<{ total_rows: number }>(`SELECT total_rows FROM subscriber_exports WHERE status = 'in_queue'`);
        expect(row?.total_rows).toBe(real + 1000);
      } finally {
        await conn.query(`UPDATE subscriber_status_counts SET total = total - 1000 WHERE subscription_status = 'active' AND NOT is_duplicate AND NOT is_mandatory`);
        await conn.query(`DELETE FROM pgboss.job WHERE name = 'console-job' AND data->>'kind' = 'export'`);
        await conn.query(`DELETE FROM subscriber_exports`);
      }
    });

    it("creates neither the export nor its job when enqueuing fails", async () => {
      const send = vi.spyOn(await queue(), "send").mockRejectedValueOnce(new Error("queue down"));
      const { status } = await postExport(s.staff, FILTERS);
      expect(status).toBe(500);
      send.mockRestore();
      const rows = await (await connection()).query(`SELECT id FROM subscriber_exports`);
      expect(rows).toEqual([]);
      expect(await jobCount()).toBe(0);
    });

    it("accepts one of 20 concurrent requests (one job), answers 409 to the others", async () => {
      counted.times = 0;
      const answers = await Promise.all(Array.from({ length: 20 }, () => postExport(s.staff, FILTERS)));
      expect(counted.times).toBe(1); // the one-in-queue rule is decided before the count
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses).toEqual([202, ...Array(19).fill(409)]);
      expect(answers.find((a) => a.status === 409)!.body.error!.code).toBe("conflict");
      expect(await jobCount()).toBe(1);
      const accepted = answers.find((a) => a.status === 202)!.body;
      expect(accepted).toMatchObject({ downloadable_file: null, downloadable_file_status: "in_queue", fresh_download_file: true });
      expect(accepted.filters).toEqual({ is_mandatory: "true", sheet: "spring" });
    });

    it("refuses the server action too while in_queue", async () => {
      const result = await requestExportAction({});
      expect(result).toMatchObject({ ok: false, formError: expect.stringMatching(/already being prepared/) });
      expect(await jobCount()).toBe(1);
    });

    it("completes, and the file holds exactly the filtered rows", async () => {
      await startJobWorker();
      const done = await waitForStatus(s.staff, (st) => st.downloadable_file_status === "completed");
      const { pagination } = await listSubscribers(EVERY, subscriberFiltersSchema.parse({ is_mandatory: "true", sheet: "spring" }));
      expect(done).toMatchObject({ progress: 100, total_rows: pagination.total, processed_rows: pagination.total });
      expect(pagination.total).toBeGreaterThan(97); // several keyset batches

      const response = await download(s.staff, done.downloadable_file!);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="subscribers-\d{8}-\d{4}\.csv"$/);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const [header, ...rows] = parseCsv(bytes.toString("utf8"));
      expect(header).toEqual([...EXPORT_COLUMNS]);
      expect(rows).toHaveLength(pagination.total);
      // In the list's order (the request's sort, -email), every row once across the batches.
      const ids = rows.map((r) => Number(r[0]));
      const listed = await (await connection()).query<{ id: number }>(`SELECT id FROM subscribers WHERE is_mandatory AND sheet_id = 1 ORDER BY email DESC, id DESC`);
      expect(ids).toEqual(listed.map((r) => r.id));
      expect(new Set(ids).size).toBe(ids.length);
      for (const r of rows) expect([r[8], r[11]]).toEqual(["Spring campaign", "true"]);
      // Every cell reads back as the value, formulas with their neutralising apostrophe.
      const hostile = rows.find((r) => Number(r[0]) % 97 === 0);
      if (hostile) expect(hostile[1]).toBe(neutralised('=HYPERLINK("http://x.test","y")'));
      const accented = rows.find((r) => Number(r[0]) % 89 === 0 && Number(r[0]) % 97 !== 0);
      if (accented) expect(accented[1]).toBe('Zoë "Jo", \nÄngel');
    });

    it("serves the file to its owner only", async () => {
      const { downloadable_file } = await getStatus(s.staff);
      expect((await download(s.admin, downloadable_file!)).status).toBe(404);
      expect((await download(null, downloadable_file!)).status).toBe(401);
      expect((await download(s.staff, "/api/v1/exports/..%2F..%2Fetc%2Fpasswd/download")).status).toBe(404);
    });

    it("audits the request and the download, by whom", async () => {
      const { prisma } = await import("@/lib/db/client");
      const events = await (await prisma()).auditEvent.findMany({ where: { actor_id: s.staff.id, entity: "export" }, orderBy: { id: "asc" } });
      expect(events.map((e) => e.action)).toEqual(["export.request", "export.download"]);
      expect(events[0]).toMatchObject({ actor_email: s.staff.email, after: { filters: { is_mandatory: "true", sheet: "spring" } } });
    });

    it("keeps the previous file downloadable while a new one is generated, then replaces it", async () => {
      const before = await getStatus(s.staff);
      actAs(s.staff);
      const result = await requestExportAction({});
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.data).toMatchObject({ downloadable_file_status: "in_queue", fresh_download_file: false });
      expect(result.data.downloadable_file).toBe(before.downloadable_file);
      expect(result.data.file?.rows).toBe(before.file?.rows);
      const done = await waitForStatus(s.staff, (st) => st.downloadable_file_status === "completed");
      expect(done.downloadable_file).not.toBe(before.downloadable_file);
      expect(done.total_rows).toBe(ROWS);
      expect((await download(s.staff, before.downloadable_file!)).status).toBe(404);
      const rows = parseCsv(await (await download(s.staff, done.downloadable_file!)).text());
      expect(rows).toHaveLength(ROWS + 1);
    });

    it("carries the list's search (q) into the file: the rows the list shows for it, no more", async () => {
      await waitForStatus(s.admin, (st) => st.downloadable_file_status !== "in_queue");
      // "last12" in a name, and the number 0000012 in the mobile (+4477 and the row's number in 8 digits).
      const filters = { q: "last12,0000012" };
      const pages = await Promise.all(["1", "2"].map((page) => listSubscribers(EVERY, subscriberFiltersSchema.parse({ ...filters, page, sort: "id" }))));
      const expected = pages.flatMap((p) => p.data.map((r) => r.id));
      expect(pages[0]!.pagination.total).toBe(11); // 12 and 120–129
      expect(expected).toHaveLength(11);
      const { status, body } = await postExport(s.admin, filters);
      expect(status).toBe(202);
      expect(body.filters).toEqual(filters);
      const done = await waitForStatus(s.admin, (st) => st.downloadable_file_status === "completed" && st.file?.filters.q === filters.q);
      expect(done).toMatchObject({ total_rows: 11, file: { rows: 11, filters } });
      const [, ...rows] = parseCsv(await (await download(s.admin, done.downloadable_file!)).text());
      expect(rows.map((r) => Number(r[0]))).toEqual(expected);
    });

    it("answers 400 to unknown filter values", async () => {
      const { status, body } = await postExport(s.admin, { is_duplicate: "maybe" });
      expect(status).toBe(400);
      expect(body.error!.code).toBe("invalid_input");
    });
  });
}
