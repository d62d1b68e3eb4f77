import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELETE as subscriberDELETE } from "@/app/api/v1/subscribers/[id]/route";
import { POST as mergePOST } from "@/app/api/v1/subscribers/merge/route";
import { POST as importPOST } from "@/app/api/v1/subscribers/imports/route";
import { GET as importGET } from "@/app/api/v1/subscribers/imports/[id]/route";
import { branchScope } from "@/lib/auth/scope";
import { connection } from "@/lib/db/sql";
import { startJobWorker } from "@/lib/jobs/worker";
import { erasePerson } from "@/lib/people/erase";
import { personData } from "@/lib/people/archive";
import { personKeySchema } from "@/lib/people/find";
import { dismissDuplicates } from "@/lib/subscribers/dismissals";
import { bulkStatus, requestBulkChange } from "@/lib/subscribers/bulk";
import { updateSubscriber, editableFields } from "@/lib/subscribers/edit";
import { createSubscriber } from "@/lib/subscribers/mutations";
import { findSubscriber } from "@/lib/subscribers/record";
import { subscriberInputSchema, type SubscriberInput } from "@/lib/subscribers/schema";
import { createView } from "@/lib/views/mutations";
import { actAs, testDbKinds } from "../helpers/db";
import { closeExportSuite, download, FILES_KINDS, openExportSuite, postExport, waitForStatus, type ExportSuite } from "../helpers/export-test";
import { apiRequest, routeContext } from "../helpers/http";

// Erasing a person leaves no copy of them anywhere the console keeps data: a person with unique
// markers in their names, email and mobile is put in every place (records live, edited, merged
// away, in the trash and imported; a bulk change by ids and one by a filter spelling them out;
// "not duplicates"; an import with a rejected row and a pending preview; an export by a filter
// naming them; a saved view; the audit), found there by a full pg_dump and a read of every stored
// file (the folder, or the bucket's folder), listed by the access archive, erased, and found nowhere.

const EVERY = branchScope({ role: "admin", branch_ids: null });
const run = promisify(execFile);

const EMAIL = "zorblatt.marker@erase.test";
const MOBILE = "+447400918273";
/** What must vanish, lower-cased: names, emails and the mobiles' digits (a file may spell them nationally). */
const MARKERS = ["quillon", "xandrovask", "zorblatt", "7400918273", "7400918274"];

const postgres = testDbKinds().includes("postgres");

/** Every file under `dir`, read as text (a zip's names aside, the console writes CSV here): which markers each holds. */
function filesHolding(dir: string): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else {
        const text = fs.readFileSync(p, "utf8").toLowerCase();
        const hits = MARKERS.filter((m) => text.includes(m));
        if (hits.length) found[path.relative(dir, p)] = hits;
      }
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return found;
}

describe.runIf(postgres).each(FILES_KINDS)("erasing a person on PostgreSQL, files %s", (files) => {
  let s: ExportSuite;
  let url: string;
  const dump = async () => (await run("pg_dump", ["--data-only", "--no-owner", url], { maxBuffer: 1 << 28 })).stdout.toLowerCase();
  /** The dump's tables (COPY blocks) that hold a marker. */
  const tablesHolding = async () => {
    const tables = new Set<string>();
    let table = "";
    for (const line of (await dump()).split("\n")) {
      const copy = /^copy ([^ ]+)/.exec(line);
      if (copy) table = copy[1]!;
      else if (MARKERS.some((m) => line.includes(m))) tables.add(table || line.slice(0, 60));
    }
    return [...tables].sort();
  };
  const storedFiles = () => filesHolding(files === "s3" ? s.bucket!.dir : path.join(s.dir, "files"));
  const make = (values: Partial<SubscriberInput>) =>
    createSubscriber(EVERY, subscriberInputSchema.parse({ first_name: "Quillon", last_name: "Xandrovask", email: EMAIL, mobile: MOBILE, subscription_status: "pending", is_mandatory: false, ...values }), s.admin);
  const postImport = async (csv: string, name: string, fields: Record<string, string> = {}) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    form.set("file", new Blob([csv]), name);
    actAs(s.admin);
    const response = await importPOST(new Request("http://localhost/api/v1/subscribers/imports", { method: "POST", body: form }), {});
    return (await response.json()) as { id: string; status: string };
  };
  const importDone = async (id: string) => {
    for (const end = Date.now() + 60_000; Date.now() < end; await new Promise((r) => setTimeout(r, 200))) {
      actAs(s.admin);
      const body = (await (await importGET(apiRequest(`/api/v1/subscribers/imports/${id}`), routeContext({ id }))).json()) as { status: string };
      if (body.status === "completed" || body.status === "failed") return body;
    }
    throw new Error("import still running");
  };
  const ids: Record<string, number> = {};
  let exportFile = "";

  beforeAll(async () => {
    s = await openExportSuite("postgres", 30, files);
    url = s.database.target.kind === "postgres" ? s.database.target.url : "";
    await startJobWorker();
  }, 120_000);
  afterAll(async () => closeExportSuite(s));

  it("puts the person everywhere, finds them there and in the archive, erases them, and finds them nowhere", async () => {
    // Live, then edited (the history keeps the old last name).
    const a = await make({});
    ids.a = a.id;
    const read = (await findSubscriber(EVERY, a.id))!;
    await updateSubscriber(EVERY, a.id, subscriberInputSchema.parse({ ...editableFields(read), last_name: "Xandrovaskia" }), read.updated_at, s.admin);
    // Same mobile, other email: marked "not duplicates" of the first.
    const b = await make({ email: "zorblatt.second@erase.test", first_name: "Quillona" });
    ids.b = b.id;
    await dismissDuplicates(EVERY, [a.id, b.id], s.admin);
    // Same email, merged away into the first.
    const c = await make({ mobile: "+447400918274" });
    ids.c = c.id;
    const versions = async (...xs: number[]) => Object.fromEntries(await Promise.all(xs.map(async (x) => [String(x), (await findSubscriber(EVERY, x))!.updated_at.toISOString()])));
    actAs(s.admin);
    const merged = await mergePOST(apiRequest("/api/v1/subscribers/merge", { method: "POST", json: { survivor_id: a.id, merged_ids: [c.id], values: { mobile: c.id }, updated_at: await versions(a.id, c.id) } }), {});
    expect(merged.status, await merged.clone().text()).toBe(200);
    // Same mobile, deleted: in the trash.
    const d = await make({ email: "zorblatt.trash@erase.test" });
    ids.d = d.id;
    actAs(s.admin);
    expect((await subscriberDELETE(apiRequest(`/api/v1/subscribers/${d.id}`, { method: "DELETE" }), routeContext({ id: String(d.id) }))).status).toBe(204);
    // Bulk changes: a selection (its undo data), and a filter spelling the email out.
    expect(await requestBulkChange(EVERY, s.admin, { ids: [a.id, b.id] }, { is_mandatory: true })).toMatchObject({ kind: "done" });
    const byFilter = await requestBulkChange(EVERY, s.admin, { filters: { email: "zorblatt" } }, { subscription_status: "active" });
    if (byFilter.kind === "queued") for (const end = Date.now() + 30_000; (await bulkStatus(s.admin, byFilter.id)).status !== "completed" && Date.now() < end; ) await new Promise((r) => setTimeout(r, 200));
    // An import bringing them in (national mobile) with a rejected row of theirs, and a pending preview.
    const header = "First Name,Surname,E-mail,Mobile number,Country";
    const imported = await postImport([header, "Quillon,Xandrovask,zorblatt.import@erase.test,07400918273,GB", "Quillon,Xandrovask,zorblatt-not-an-email,07400918273,GB", "Other,Person,other.person@erase.test,07400111222,GB"].join("\n"), "Fair.csv");
    expect(await importDone(imported.id)).toMatchObject({ status: "completed" });
    const preview = await postImport([header, "Ann,Else,ann.else@erase.test,07400111333,GB", "Quillon,Xandrovask,zorblatt.preview@erase.test,07400918273,GB"].join("\n"), "Later.csv", { dry_run: "true" });
    expect(preview.status).toBe("completed");
    // An export by a filter naming them, and a saved view.
    const requested = await postExport(s.admin, { email: "zorblatt" });
    expect(requested.status, JSON.stringify(requested.body)).toBe(202);
    const done = await waitForStatus(s.admin, (x) => x.downloadable_file_status === "completed");
    exportFile = done.downloadable_file!;
    await createView(s.admin, { resource: "subscribers", name: "Quillon's", query: `email=${encodeURIComponent(EMAIL)}`, columns: null, shared: false });

    // Found where they were put.
    const tables = await tablesHolding();
    for (const t of ["subscribers", "subscriber_trash", "subscriber_merges", "bulk_changes", "audit_events", "subscriber_exports", "saved_views", "subscriber_imports"]) {
      expect(tables).toContain(`public.${t}`);
    }
    const held = Object.keys(storedFiles());
    expect(held.filter((f) => /exports\//.test(f)).length).toBeGreaterThan(0);
    expect(held.filter((f) => /imports\/.*\.source/.test(f)).length).toBe(2);
    expect(held.filter((f) => /imports\/.*\.rejected/.test(f)).length).toBe(1);

    // The archive lists every place.
    const key = personKeySchema.parse({ email: EMAIL });
    const data = await personData(EVERY, key);
    const byId = Object.fromEntries(data.records.map((r) => [r.id, r.state]));
    expect(byId).toMatchObject({ [a.id]: "live", [b.id]: "live", [c.id]: "merged", [d.id]: "trash" });
    expect(data.records.find((r) => r.id === a.id)!.history.map((h) => h.action)).toEqual(expect.arrayContaining(["subscriber.create", "subscriber.update", "subscriber.merge"]));
    expect(data.records.some((r) => r.email === "zorblatt.import@erase.test")).toBe(true);
    expect(data.merges.map((m) => m.survivor_id)).toEqual([a.id]);
    expect(data.bulk_changes).toHaveLength(2);
    expect(data.audit_entries.map((e) => e.action)).toEqual(expect.arrayContaining(["subscriber.bulk_change", "subscriber.not_duplicates", "export.request"]));
    expect(data.imports.map((i) => [i.file_name, i.dry_run, i.lines, i.rejected_lines])).toEqual([["Fair.csv", false, [2, 3], [2]], ["Later.csv", true, [3], []]]);
    expect(data.saved_views.map((v) => v.name)).toEqual(["Quillon's"]);
    expect(data.exports).toHaveLength(1);
    expect(data.exports[0]).toMatchObject({ user_email: s.admin.email, format: "csv", status: "completed" });

    // Erased: nothing left.
    const counts = await erasePerson(EVERY, key, s.admin);
    expect(counts).toMatchObject({ erased_subscribers: 5, exports_withdrawn: 1, import_rows: 4 });
    expect(counts.history_entries).toBeGreaterThan(5);
    expect(await tablesHolding()).toEqual([]);
    expect(storedFiles()).toEqual({});
    const response = await download(s.admin, exportFile);
    expect(response.status).toBe(410);
    expect(await response.json()).toMatchObject({ error: { code: "erased_data", message: expect.stringMatching(/withdrawn: it held a person whose personal data was erased/) } });
    // The withdrawn preview's owner reads why in their language: the API in the one asked, English by default.
    actAs(s.admin);
    const french = await (await importGET(apiRequest(`/api/v1/subscribers/imports/${preview.id}`, { headers: { "accept-language": "fr" } }), routeContext({ id: preview.id }))).json();
    expect(french).toMatchObject({ status: "failed", error: expect.stringMatching(/^Ce fichier a été retiré : il contenait une personne dont les données personnelles ont été effacées\./) });
    expect(await importDone(preview.id)).toMatchObject({ status: "failed", error: expect.stringMatching(/^This file was withdrawn: it held a person whose personal data was erased\./) });
    // The other people of the import stay; the audit keeps who erased whom, without their values.
    expect(await (await connection()).query(`SELECT 1 FROM subscribers WHERE email = 'other.person@erase.test'`)).toHaveLength(1);
    const [event] = await (await connection()).query<{ actor_email: string; after: { subscriber_ids: number[] } }>(`SELECT actor_email, after FROM audit_events WHERE action = 'person.erase'`);
    expect(event!.actor_email).toBe(s.admin.email);
    expect(event!.after.subscriber_ids).toEqual(expect.arrayContaining([a.id, b.id, c.id, d.id]));
    expect((await personData(EVERY, key)).records).toEqual([]);
  }, 180_000);
});
