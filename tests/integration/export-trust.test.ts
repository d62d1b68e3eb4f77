import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestExportAction } from "@/app/(console)/subscribers/export-actions";
import { DELETE as subscriberDELETE } from "@/app/api/v1/subscribers/[id]/route";
import { DELETE as eraseSubscriberDELETE } from "@/app/api/v1/trash/subscribers/[id]/route";
import { GET as exportGET } from "@/app/api/v1/subscribers/export/route";
import { GET as downloadGET } from "@/app/api/v1/exports/[id]/download/route";
import { branchScope } from "@/lib/auth/scope";
import type { SessionUser } from "@/lib/auth/permissions";
import { connection } from "@/lib/db/sql";
import { idRanges } from "@/lib/export/run";
import { problem } from "@/lib/i18n/problem";
import { exportStatusSchema } from "@/lib/export/schema";
import { startJobWorker } from "@/lib/jobs/worker";
import { subscriberFiltersSchema } from "@/lib/subscribers/filters";
import { listSubscribers } from "@/lib/subscribers/queries";
import { purgeTrash } from "@/lib/trash/purge";
import { actAs, testDbKinds } from "../helpers/db";
import { closeExportSuite, download, getStatus, openExportSuite, parseCsv, postExport, waitForStatus, type ExportSuite } from "../helpers/export-test";
import { apiRequest, routeContext } from "../helpers/http";

// Exports you can trust: the file follows the list's sort, the panel refuses an export of no rows
// before it runs, and erasing a subscriber withdraws only the files that hold it, telling their owners.

const EVERY = branchScope({ role: "admin", branch_ids: null });

it("writes ids as the multirange of their runs", () => {
  expect(idRanges([9, 2, 1, 3, 5])).toBe("{[1,4),[5,6),[9,10)}");
  expect(idRanges([])).toBe("{}");
});

for (const kind of testDbKinds()) {
  describe(`exports you can trust (${kind})`, () => {
    let s: ExportSuite;
    beforeAll(async () => {
      s = await openExportSuite(kind, 300);
      await startJobWorker();
    });
    afterAll(() => closeExportSuite(s));

    const exported = async (user: SessionUser, filters: Record<string, string>) => {
      const posted = await postExport(user, filters);
      expect(posted.status, JSON.stringify(posted.body)).toBe(202);
      const done = await waitForStatus(user, (st) => st.downloadable_file_status === "completed" && st.requested_at === posted.body.requested_at);
      expect(exportStatusSchema.parse(done)).toEqual(done);
      const response = await download(user, done.downloadable_file!);
      expect(response.status).toBe(200);
      const [, ...rows] = parseCsv(await response.text());
      return { done, ids: rows.map((r) => Number(r[0])) };
    };
    const listed = async (params: Record<string, string>) => {
      const ids: number[] = [];
      for (let page = 1; ; page++) {
        const { data } = await listSubscribers(EVERY, subscriberFiltersSchema.parse({ ...params, page: String(page) }));
        if (data.length === 0) return ids;
        ids.push(...data.map((r) => r.id));
      }
    };
    const call = async (user: SessionUser, handler: (r: Request, c: never) => Promise<Response>, path: string, id: number) => {
      actAs(user);
      return (await handler(apiRequest(path, { method: "DELETE" }), routeContext({ id: String(id) }) as never)).status;
    };

    it("follows the list's sort, names without a value and descending orders included", async () => {
      const sorts: Record<string, string>[] = [{ sort: "country_name" }, { sort: "-travel_date", is_mandatory: "false" }, { sort: "-branch_name" }, { sort: "last_name" }];
      for (const params of sorts) {
        const { done, ids } = await exported(s.admin, params);
        expect(ids, params.sort).toEqual(await listed(params));
        expect(done.sort).toBe(params.sort);
        expect(done.file).toMatchObject({ sort: params.sort, rows: ids.length });
      }
    });

    it("the panel's request refuses an export of no rows before it runs, and keeps the user's file", async () => {
      const conn = await connection();
      const before = await conn.query(`SELECT id FROM subscriber_exports ORDER BY id`);
      actAs(s.admin);
      expect(await requestExportAction({ email: "nobody-at-all", sort: "-created_at" })).toMatchObject({ ok: false, formError: expect.stringMatching(/nothing to export/) });
      expect(await conn.query(`SELECT id FROM subscriber_exports ORDER BY id`)).toEqual(before);
      expect((await getStatus(s.admin)).downloadable_file_status).toBe("completed");
    });

    it("withdraws only the files holding an erased subscriber, telling their owners, on Delete forever and the clean-up", async () => {
      const conn = await connection();
      // Disjoint files: "user1" and "user2" in the email never match the same subscriber.
      const staffs = await exported(s.staff, { email: "user1", sort: "-created_at" });
      const admins = await exported(s.admin, { email: "user2", sort: "email" });
      const [one] = await conn.query<{ id: number }>(`SELECT id FROM subscribers WHERE email = 'user1@example.com'`);
      const [two] = await conn.query<{ id: number }>(`SELECT id FROM subscribers WHERE email = 'user2@example.com'`);
      expect(staffs.ids).toContain(one!.id);
      expect(admins.ids).not.toContain(one!.id);
      expect(admins.ids).toContain(two!.id);

      expect(await call(s.admin, subscriberDELETE, `/api/v1/subscribers/${one!.id}`, one!.id)).toBe(204);
      expect(await call(s.admin, eraseSubscriberDELETE, `/api/v1/trash/subscribers/${one!.id}`, one!.id)).toBe(204);
      const told = await getStatus(s.staff);
      expect(told).toMatchObject({ downloadable_file: null, downloadable_file_status: "failed", file: null });
      // Kept as a problem key, said in the API's answer's language: English unless asked otherwise.
      const [stored] = await conn.query<{ error: string }>(`SELECT error FROM subscriber_exports WHERE user_id = ${s.staff.id} AND status = 'failed'`);
      expect(stored!.error).toBe(problem("export.withdrawn", { rows: staffs.ids.length, why: "deleted" }));
      expect(told.error).toBe(`Your file of ${staffs.ids.length} rows was withdrawn: it held a subscriber who was deleted forever. Request the export again.`);
      const french = apiRequest("/api/v1/subscribers/export", { headers: { "accept-language": "fr-FR,fr;q=0.9" } });
      actAs(s.staff);
      expect(((await (await exportGET(french, {})).json()) as { error: string }).error).toBe(
        `Votre fichier de ${staffs.ids.length} lignes a été retiré : il contenait un abonné supprimé définitivement. Demandez l’export à nouveau.`,
      );
      // Its owner is told why, not that it never was (docs/API.md: 410 erased_data), in the language asked.
      const gone = await download(s.staff, staffs.done.downloadable_file!);
      expect(gone.status).toBe(410);
      expect(await gone.json()).toMatchObject({ error: { code: "erased_data", message: told.error } });
      const fileId = staffs.done.downloadable_file!.split("/").at(-2)!;
      actAs(s.staff);
      const goneArabic = await downloadGET(apiRequest(staffs.done.downloadable_file!, { headers: { "accept-language": "ar" } }), routeContext({ id: fileId }));
      expect(goneArabic.status).toBe(410);
      expect(((await goneArabic.json()) as { error: { message: string } }).error.message).toMatch(/^سُحب ملفك المؤلف من .*كان يتضمن مشتركًا حُذف نهائيًا/);
      // A file withdrawn before the error was a key still answers 410, with its English as it was written.
      const oldWords = "Your file of 3 rows was withdrawn: it held a subscriber who was deleted forever. Request the export again.";
      await conn.query(`UPDATE subscriber_exports SET error = '${oldWords}' WHERE id = '${fileId}'`);
      const goneBefore = await downloadGET(apiRequest(staffs.done.downloadable_file!, { headers: { "accept-language": "fr" } }), routeContext({ id: fileId }));
      expect(goneBefore.status).toBe(410);
      expect(await goneBefore.json()).toMatchObject({ error: { code: "erased_data", message: oldWords } });
      // The other user's file did not hold it: still there, still downloadable.
      expect(await getStatus(s.admin)).toMatchObject({ downloadable_file: admins.done.downloadable_file, downloadable_file_status: "completed" });
      expect((await download(s.admin, admins.done.downloadable_file!)).status).toBe(200);

      // The scheduled clean-up: the same rule for what it erases.
      const [untouched] = await conn.query<{ id: number }>(`SELECT id FROM subscribers WHERE email = 'user3@example.com'`);
      const staffAgain = await exported(s.staff, { email: "user3", sort: "-created_at" });
      expect(await call(s.admin, subscriberDELETE, `/api/v1/subscribers/${two!.id}`, two!.id)).toBe(204);
      await conn.query(`UPDATE subscriber_trash SET deleted_at = now() - interval '40 days' WHERE id = ${two!.id}`);
      process.env.TRASH_RETENTION_DAYS = "30";
      try {
        expect(await purgeTrash()).toMatchObject({ subscribers: 1, exports: 1 });
      } finally {
        delete process.env.TRASH_RETENTION_DAYS;
      }
      expect(await getStatus(s.admin)).toMatchObject({ downloadable_file_status: "failed", error: expect.stringMatching(/^Your file of \d+ rows was withdrawn/) });
      expect(staffAgain.ids).toContain(untouched!.id);
      expect(await getStatus(s.staff)).toMatchObject({ downloadable_file: staffAgain.done.downloadable_file, downloadable_file_status: "completed" });
    });
  });
}
