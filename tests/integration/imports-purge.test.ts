import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as importPOST } from "@/app/api/v1/subscribers/imports/route";
import { connection, sql, type Statement } from "@/lib/db/sql";
import { startImport, type ImportStatus } from "@/lib/imports/imports";
import { purgeImports } from "@/lib/imports/purge";
import { rejectedKey, sourceKey } from "@/lib/imports/source";
import { storage } from "@/lib/storage";
import { actAs, testDbKinds } from "../helpers/db";
import { closeExportSuite, FILES_KINDS, openExportSuite, type ExportSuite } from "../helpers/export-test";

// The purge of imports (lib/imports/purge.ts, run by the worker's scheduled clean-up), on both
// databases and both storage backends: an import finished (completed or failed) longer than
// EXPORT_RETENTION_HOURS ago goes with its uploaded file and its rejected rows; a recent one
// stays with its files; a dry run left `running` by a server that stopped mid-preview goes too
// once it is that old (nothing else would ever end it); a queued or running import (its job
// decides) stays; a file no import names goes after an hour, a newer one stays. A preview never
// started goes after IMPORT_PREVIEW_RETENTION_HOURS; the previews a user has not started hold at
// most IMPORT_PREVIEW_QUOTA_MB; a file no mapping can import is not kept as a preview.

const HEADER = "first_name,last_name,email,mobile";

for (const [kind, files] of testDbKinds().flatMap((k) => FILES_KINDS.map((f) => [k, f] as const))) {
  describe(`purge of imports on ${kind}, files ${files === "s3" ? "in a bucket" : "in a folder"}`, () => {
    let s: ExportSuite;
    const q = async <T,>(statement: Statement | string) => (await connection()).query<T>(statement);

    beforeAll(async () => {
      s = await openExportSuite(kind, 0, files);
      expect(storage().kind).toBe(files);
    });
    afterAll(() => closeExportSuite(s));

    /** A previewed import (a dry run: its file and rejected rows stored), made `daysOld` old in the state given. */
    async function imported(name: string, state: { status: string; dryRun: boolean; daysOld: number } | { status: string; dryRun: boolean; hoursOld: number }) {
      const data = new FormData();
      data.set("dry_run", "true");
      data.set("file", new Blob([`${HEADER}\nAnn,Lee,${name}@example.com,+447911100123\nBad,Row,not-an-email,+447911100124\n`]), `${name}.csv`);
      actAs(s.staff);
      const response = await importPOST(new Request("http://localhost/api/v1/subscribers/imports", { method: "POST", body: data }), {});
      const body = (await response.json()) as ImportStatus;
      expect(response.status).toBe(200);
      expect(body).toMatchObject({ status: "completed", rejected_rows: 1 });
      const then = new Date(Date.now() - ("daysOld" in state ? state.daysOld * 24 : state.hoursOld) * 3600_000);
      const finished = state.status === "completed" || state.status === "failed";
      await q(sql`UPDATE subscriber_imports SET status = ${state.status}::"ImportStatus", dry_run = ${state.dryRun}, created_at = ${then},
        completed_at = ${finished ? then : null} WHERE id = ${body.id}`);
      return body.id;
    }
    const stored = async (key: string) => {
      const object = await storage().get(key);
      object?.body.destroy();
      return object !== null;
    };
    const filesOf = async (id: string) => [await stored(sourceKey(id)), await stored(rejectedKey(id))];
    /** Makes a stored object look `hours` old: its file's time, which both backends report. */
    const age = (key: string, hours: number) => {
      const file = s.bucket ? path.join(s.bucket.dir, s.bucket.bucket, `console/${key}._S3rver_object`) : path.join(s.dir, "files", key);
      const then = new Date(Date.now() - hours * 3600_000);
      fs.utimesSync(file, then, then);
    };

    it("deletes old finished imports and stale previews with their files, keeps recent and running ones, and sweeps stray files", async () => {
      const oldCompleted = await imported("old-completed", { status: "completed", dryRun: false, daysOld: 30 });
      const oldFailed = await imported("old-failed", { status: "failed", dryRun: false, daysOld: 30 });
      const oldPreview = await imported("old-preview", { status: "completed", dryRun: true, daysOld: 30 });
      const stalePreview = await imported("stale-preview", { status: "running", dryRun: true, daysOld: 30 });
      const recent = await imported("recent", { status: "completed", dryRun: false, daysOld: 1 });
      const recentPreview = await imported("recent-preview", { status: "running", dryRun: true, daysOld: 0 });
      const oldJob = await imported("old-job", { status: "running", dryRun: false, daysOld: 30 });
      // Staging rows of the stale preview, as a server stopped mid-preview leaves them.
      await q(sql`INSERT INTO import_rows (import_id, line, first_name, last_name, email, mobile, sheet, subscription_status, is_mandatory)
        VALUES (${stalePreview}, 2, 'Ann', 'Lee', 'stale@example.com', '+447911100125', 'x', 'pending', false)`);
      await storage().put("imports/AAAAAAAAAAAAAAAAAAAAAA.source", ["a file no import names"]);
      await storage().put("imports/BBBBBBBBBBBBBBBBBBBBBB.source", ["another, written a moment ago"]);
      age("imports/AAAAAAAAAAAAAAAAAAAAAA.source", 2);
      for (const id of [oldCompleted, stalePreview, recent]) expect(await filesOf(id)).toEqual([true, true]);

      expect(await purgeImports()).toEqual({ purged: 4, strays: 1 });

      const left = (await q<{ id: string }>(`SELECT id FROM subscriber_imports`)).map((r) => r.id);
      expect(left.sort()).toEqual([recent, recentPreview, oldJob].sort());
      for (const id of [oldCompleted, oldFailed, oldPreview, stalePreview]) expect(await filesOf(id), id).toEqual([false, false]);
      for (const id of [recent, recentPreview, oldJob]) expect(await filesOf(id), id).toEqual([true, true]);
      expect(await q(sql`SELECT 1 FROM import_rows WHERE import_id = ${stalePreview}`)).toHaveLength(0);
      expect(await stored("imports/AAAAAAAAAAAAAAAAAAAAAA.source")).toBe(false);
      expect(await stored("imports/BBBBBBBBBBBBBBBBBBBBBB.source")).toBe(true);

      expect(await purgeImports()).toEqual({ purged: 0, strays: 0 }); // nothing more to do
    });

    it("purges previews never started within hours (IMPORT_PREVIEW_RETENTION_HOURS), not after the imports' week", async () => {
      const abandoned = await imported("abandoned", { status: "completed", dryRun: true, hoursOld: 3 });
      const unmapped = await imported("unmapped", { status: "failed", dryRun: true, hoursOld: 3 });
      const fresh = await imported("fresh", { status: "completed", dryRun: true, hoursOld: 1 });
      const finished = await imported("finished", { status: "completed", dryRun: false, hoursOld: 3 });
      expect(await purgeImports()).toMatchObject({ purged: 2 });
      const left = new Set((await q<{ id: string }>(`SELECT id FROM subscriber_imports`)).map((r) => r.id));
      expect([abandoned, unmapped, fresh, finished].map((id) => left.has(id))).toEqual([false, false, true, true]);
      expect(await filesOf(abandoned)).toEqual([false, false]);
      expect(await filesOf(fresh)).toEqual([true, true]);
      process.env.IMPORT_PREVIEW_RETENTION_HOURS = "5";
      try {
        const kept = await imported("kept-longer", { status: "completed", dryRun: true, hoursOld: 3 });
        await purgeImports();
        expect((await q(sql`SELECT 1 FROM subscriber_imports WHERE id = ${kept}`)).length).toBe(1);
      } finally {
        delete process.env.IMPORT_PREVIEW_RETENTION_HOURS;
      }
    });

    /** A dry run of a CSV of about `kb` kilobytes (a long note beside each of its two rows). */
    async function preview(who: "staff" | "admin", kb: number, header = `${HEADER},notes`) {
      const note = "n".repeat(Math.floor((kb * 1024) / 2));
      const data = new FormData();
      data.set("dry_run", "true");
      data.set("file", new Blob([`${header}\nAnn,Lee,ann@example.com,+447911100123,${note}\nBob,Roe,bob@example.com,+447911100124,${note}\n`]), `quota-${kb}.csv`);
      actAs(s[who]);
      const response = await importPOST(new Request("http://localhost/api/v1/subscribers/imports", { method: "POST", body: data }), {});
      return { status: response.status, body: (await response.json()) as ImportStatus & { error?: { code: string; message: string } } };
    }
    const sourceFiles = async () => {
      let n = 0;
      for await (const entry of storage().list("imports/")) if (entry.key.endsWith(".source")) n++;
      return n;
    };

    it("holds a user's previews not started to IMPORT_PREVIEW_QUOTA_MB: 413 quota_exceeded beyond, nothing kept of it", async () => {
      await q(`DELETE FROM subscriber_imports`);
      await purgeImports(new Date(Date.now() + 3600_000 * 2)); // no stray file left from the tests above
      process.env.IMPORT_PREVIEW_QUOTA_MB = "1";
      try {
        const first = await preview("staff", 400);
        expect(first.status, JSON.stringify(first.body)).toBe(200);
        expect((await preview("staff", 400)).status).toBe(200);
        const files = await sourceFiles();
        const over = await preview("staff", 400);
        expect(over.status).toBe(413);
        expect(over.body.error).toMatchObject({ code: "quota_exceeded", message: expect.stringMatching(/hold 0\.8 MB; with this file \(0\.4 MB\) they would pass the 1 MB allowed/) });
        expect(await sourceFiles()).toBe(files);
        expect((await q<{ n: number }>(`SELECT count(*)::int AS n FROM subscriber_imports`))[0]!.n).toBe(2);
        // Another user has a quota of their own; a small file still fits in this one's.
        expect((await preview("admin", 400)).status).toBe(200);
        expect((await preview("staff", 100)).status).toBe(200);
        // A started import no longer counts: its preview's room is free again.
        actAs(s.staff);
        await startImport(s.staff, first.body.id);
        expect((await preview("staff", 400)).status).toBe(200);
        // Uploads at once cannot all take the last room: of three, one fits.
        await q(`DELETE FROM subscriber_imports WHERE dry_run`);
        expect((await preview("staff", 400)).status).toBe(200);
        const together = await Promise.all([0, 1, 2].map(() => preview("staff", 400)));
        expect(together.map((a) => a.status).sort()).toEqual([200, 413, 413]);
      } finally {
        delete process.env.IMPORT_PREVIEW_QUOTA_MB;
      }
    });

    it("keeps no preview of a file no mapping can import: too few columns, or two of one name", async () => {
      await q(`DELETE FROM subscriber_imports`);
      const before = await sourceFiles();
      for (const [header, message] of [
        ["name", /The file has one column: an import needs one for each of First name, Last name, Email, Mobile/],
        ["name,email,phone", /The file has 3 columns/],
        ["first_name,last_name,email,email,mobile", /Two columns have the same name: "email"/],
      ] as const) {
        const data = new FormData();
        data.set("dry_run", "true");
        data.set("file", new Blob([`${header}\n${header.split(",").map((_, i) => `v${i}`).join(",")}\n`]), "unmappable.csv");
        actAs(s.staff);
        const response = await importPOST(new Request("http://localhost/api/v1/subscribers/imports", { method: "POST", body: data }), {});
        expect(response.status, header).toBe(400);
        expect((await response.json()).error).toMatchObject({ code: "invalid_file", message: expect.stringMatching(message) });
      }
      expect(await sourceFiles()).toBe(before);
      expect(await q(`SELECT id FROM subscriber_imports`)).toEqual([]);
      // Four columns named otherwise can be mapped on the page: that preview is kept, its problems said.
      const mappable = await preview("staff", 1, "col a,col b,col c,col d,notes");
      expect(mappable.status).toBe(200);
      expect(mappable.body.problems.join(" ")).toMatch(/No column gives First name, Last name, Email, Mobile/);
    });
  });
}
