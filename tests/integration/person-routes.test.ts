import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as exportGET } from "@/app/api/v1/people/export/route";
import { POST as erasePOST } from "@/app/api/v1/people/erase/route";
import { branchScope } from "@/lib/auth/scope";
import { connection } from "@/lib/db/sql";
import { createSubscriber } from "@/lib/subscribers/mutations";
import { subscriberInputSchema } from "@/lib/subscribers/schema";
import { actAs, testDbKinds } from "../helpers/db";
import { closeExportSuite, openExportSuite, parseCsv, type ExportSuite } from "../helpers/export-test";
import { apiRequest } from "../helpers/http";
import { unzip } from "../helpers/xlsx-read";

// The personal-data routes: bad input is a 400 naming the field, an unknown person a 404, staff a
// 403; the archive is a zip of person.json and summary.csv; erasure wants `confirm: true`; both are
// audited without the person's values.

const EVERY = branchScope({ role: "admin", branch_ids: null });

for (const kind of testDbKinds()) {
  describe(`personal-data routes on ${kind}`, () => {
    let s: ExportSuite;
    const get = async (query: string, as = s.admin) => {
      actAs(as);
      return exportGET(apiRequest(`/api/v1/people/export${query}`), {});
    };
    const erase = async (json: unknown, as = s.admin) => {
      actAs(as);
      const response = await erasePOST(apiRequest("/api/v1/people/erase", { method: "POST", json }), {});
      return { status: response.status, body: (await response.json()) as Record<string, unknown> & { error?: { code: string; fields?: Record<string, string[]> } } };
    };

    beforeAll(async () => {
      s = await openExportSuite(kind, 5);
    });
    afterAll(async () => closeExportSuite(s));

    it("refuses bad input, staff and nobody, clearly", async () => {
      expect((await get("")).status).toBe(400);
      const bad = await get("?mobile=12ab");
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: { fields: Record<string, string[]> } }).error.fields).toHaveProperty("mobile");
      expect((await get("?subscriber_id=-3")).status).toBe(400);
      expect((await get("?email=nobody.here@people.test")).status).toBe(404);
      expect((await get("?email=nobody.here@people.test", s.staff)).status).toBe(403);
      const unconfirmed = await erase({ email: "nobody.here@people.test" });
      expect(unconfirmed.status).toBe(400);
      expect(unconfirmed.body.error!.fields).toHaveProperty("confirm");
      expect((await erase({ email: "nobody.here@people.test", confirm: true })).status).toBe(404);
      expect((await erase({ email: "nobody.here@people.test", confirm: true }, s.staff)).status).toBe(403);
    });

    it("downloads the archive and erases, audited without the person's values", async () => {
      const p = await createSubscriber(EVERY, subscriberInputSchema.parse({ first_name: "Orsolya", last_name: "Wendeborn", email: "orsolya@people.test", mobile: "+447400777001", subscription_status: "active", is_mandatory: false }), s.admin);
      const response = await get(`?subscriber_id=${p.id}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/zip");
      const files = await unzip(Buffer.from(await response.arrayBuffer()));
      expect([...files.keys()].sort()).toEqual(["person.json", "summary.csv"]);
      const data = JSON.parse(files.get("person.json")!.toString("utf8")) as { records: { id: number; email: string; history: { action: string }[] }[] };
      expect(data.records).toMatchObject([{ id: p.id, email: "orsolya@people.test", history: [{ action: "subscriber.create" }] }]);
      const summary = parseCsv(files.get("summary.csv")!.toString("utf8").replaceAll("\r\n", "\n").replaceAll("\n", "\r\n"));
      expect(summary[0]).toEqual(["place", "id", "when", "detail"]);
      expect(summary[1]).toEqual(["subscriber (live)", String(p.id), expect.any(String), "Orsolya Wendeborn <orsolya@people.test> +447400777001"]);

      const erased = await erase({ mobile: "+44 7400 777001", confirm: true });
      expect(erased).toMatchObject({ status: 200, body: { erased_subscribers: 1, history_entries: 1, exports_withdrawn: 0, import_rows: 0 } });
      expect((await get(`?subscriber_id=${p.id}`)).status).toBe(404);
      const events = await (await connection()).query<{ action: string; after: unknown }>(`SELECT action, after FROM audit_events WHERE action LIKE 'person.%' ORDER BY id`);
      expect(events.map((e) => e.action)).toEqual(["person.export", "person.erase"]);
      expect(JSON.stringify(events)).not.toMatch(/orsolya|wendeborn|777001/i);
    });
  });
}
