import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as importPOST } from "@/app/api/v1/subscribers/imports/route";
import { GET as exportGET } from "@/app/api/v1/subscribers/export/route";
import type { SessionUser } from "@/lib/auth/permissions";
import type { Queryable } from "@/lib/db/sql";
import { connection } from "@/lib/db/sql";
import { exportKey } from "@/lib/export/files";
import { runExport, SCOPE_CHANGED } from "@/lib/export/run";
import { runImport } from "@/lib/imports/run";
import { runBulkChange } from "@/lib/subscribers/bulk";
import { storage } from "@/lib/storage";
import { actAs, testDbKinds } from "../helpers/db";
import { closeExportSuite, download, getStatus, openExportSuite, postExport, type ExportSuite } from "../helpers/export-test";
import { apiRequest } from "../helpers/http";

// A scope narrowed while a job of its user runs (docs/decisions/0028-branch-scope.md): the job
// started under branches A and B, and its user has only A by the time it writes. An export does
// not keep a file made under the wider scope, an import inserts no row naming B, a bulk change
// leaves B's rows alone from its next batch on. The first read of a job's scope answers the wider
// one (as it stood when the job started); later reads are the database's.

const started = vi.hoisted(() => ({ wider: null as number[] | null }));
vi.mock("@/lib/auth/scope", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/auth/scope")>();
  return {
    ...real,
    branchScopeOfUser: async (userId: number, db?: Queryable) => {
      const wider = started.wider;
      started.wider = null;
      return wider ? real.branchScope({ role: "staff", branch_ids: wider }) : real.branchScopeOfUser(userId, db);
    },
  };
});

type Json = Record<string, unknown>;

for (const kind of testDbKinds()) {
  describe(`jobs of a scope narrowed while they run, on ${kind}`, () => {
    let s: ExportSuite;
    let scoped: SessionUser;
    let a = 0;
    let b = 0;
    const ids = { a: [] as number[], b: [] as number[] };
    const q = async <T = Json,>(text: string) => (await connection()).query<T>(text);
    const jobsDone = () => q(`UPDATE pgboss.job SET state = 'completed' WHERE data->>'userId' = '${scoped.id}'`);

    beforeAll(async () => {
      s = await openExportSuite(kind, 12);
      const made = await s.database.prisma.branch.createManyAndReturn({ data: [{ name: "Narrow A" }, { name: "Narrow B" }], select: { id: true } });
      [a, b] = made.map((x) => x.id) as [number, number];
      const all = (await q<{ id: number }>(`SELECT id FROM subscribers ORDER BY id`)).map((r) => r.id);
      ids.a = all.slice(0, 6);
      ids.b = all.slice(6);
      await q(`UPDATE subscribers SET branch_id = ${a}, is_mandatory = false WHERE id IN (${ids.a.join(",")})`);
      await q(`UPDATE subscribers SET branch_id = ${b}, is_mandatory = false WHERE id IN (${ids.b.join(",")})`);
      const user = await s.database.prisma.user.create({
        data: { email: `narrow-${kind}@scope.test`, name: "Nora Narrow", role: "staff", password_hash: "scrypt$1$1$1$x$y", branch_scoped: true, branches: { create: [{ branch_id: a }] } },
        select: { id: true },
      });
      scoped = { id: user.id, name: "Nora Narrow", email: `narrow-${kind}@scope.test`, role: "staff", branch_ids: [a] };
    }, 120_000);
    afterEach(() => {
      started.wider = null;
      delete process.env.BULK_BATCH_SIZE;
    });
    afterAll(async () => closeExportSuite(s));

    it("does not keep an export file written under the wider scope", async () => {
      expect((await postExport(scoped)).status).toBe(202);
      const [{ id }] = (await q<{ id: string }>(`SELECT id FROM subscriber_exports WHERE user_id = ${scoped.id} AND status = 'in_queue'`)) as [{ id: string }];
      started.wider = [a, b];
      expect(await runExport(id)).toMatchObject({ exportId: id, skipped: expect.any(String) });
      await jobsDone();
      expect(await q(`SELECT status::text AS status, error FROM subscriber_exports WHERE id = '${id}'`)).toEqual([{ status: "failed", error: SCOPE_CHANGED }]);
      // Kept as a problem key; the API says it in the language asked, English by default.
      expect(SCOPE_CHANGED).toBe("export.scopeChanged");
      expect((await getStatus(scoped)).error).toBe("Your branches changed while the file was written, so it was not kept. Request the export again.");
      actAs(scoped);
      const french = await exportGET(apiRequest("/api/v1/subscribers/export", { headers: { "accept-language": "fr" } }), {});
      expect(((await french.json()) as { error: string }).error).toBe("Vos agences ont changé pendant l’écriture du fichier : il n’a donc pas été conservé. Demandez l’export à nouveau.");
      expect(await storage().get(exportKey(id))).toBeNull();
      expect((await download(scoped, `/api/v1/exports/${id}/download`)).status).toBe(404);
      // Asked again under the scope as it is: kept.
      expect((await postExport(scoped)).status).toBe(202);
      const [again] = await q<{ id: string }>(`SELECT id FROM subscriber_exports WHERE user_id = ${scoped.id} AND status = 'in_queue'`);
      expect(await runExport(again!.id)).toEqual({ exportId: again!.id, rows: ids.a.length });
      await jobsDone();
    });

    it("fails an import whose checked rows name a branch no longer in scope, importing nothing", async () => {
      actAs(scoped);
      const form = new FormData();
      const csv = `first_name,last_name,email,mobile,branch_name\nIn,Narrow,in-${kind}@narrow.test,+447911200021,Narrow A\nOut,Narrow,out-${kind}@narrow.test,+447911200022,Narrow B\n`;
      form.set("file", new Blob([csv]), "narrow.csv");
      const response = await importPOST(new Request("http://localhost/api/v1/subscribers/imports", { method: "POST", body: form }), {});
      expect(response.status).toBe(202);
      const { id } = (await response.json()) as { id: string };
      started.wider = [a, b];
      await expect(runImport(id)).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/^Your branches changed while the file was read: 1 of its rows/) });
      await jobsDone();
      expect(await q(`SELECT count(*)::int AS n FROM subscribers WHERE email LIKE '%-${kind}@narrow.test'`)).toEqual([{ n: 0 }]);
      // Read again under the scope as it is, the row of B is rejected and the row of A imported.
      await q(`UPDATE subscriber_imports SET status = 'in_queue' WHERE id = '${id}'`);
      expect(await runImport(id)).toMatchObject({ imported: 1, rejected: 1 });
    });

    it("leaves the other branch's rows alone from the bulk change's next batch on", async () => {
      process.env.BULK_BATCH_SIZE = "2";
      await q(`INSERT INTO bulk_changes (id, user_id, target, change, total_rows) VALUES ('narrowjob${kind}', ${scoped.id}, '{"filters": {}}', '{"is_mandatory": true}', 0)`);
      // The first batch (two of A's rows, the lowest ids) reads the wider scope; every later one A alone.
      const [{ n: inA }] = (await q<{ n: number }>(`SELECT count(*)::int AS n FROM subscribers WHERE branch_id = ${a}`)) as [{ n: number }];
      started.wider = [a, b];
      expect(await runBulkChange(`narrowjob${kind}`)).toEqual({ processed: inA });
      expect(await q(`SELECT count(*)::int AS n FROM subscribers WHERE branch_id = ${a} AND is_mandatory`)).toEqual([{ n: inA }]);
      expect(await q(`SELECT count(*)::int AS n FROM subscribers WHERE branch_id = ${b} AND is_mandatory`)).toEqual([{ n: 0 }]);
    });
  });
}
