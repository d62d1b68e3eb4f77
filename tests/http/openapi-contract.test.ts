import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiDocument } from "@/lib/openapi/document";
import { Browser, rawRequest, startConsole, type ConsoleServer, type RawResponse } from "../helpers/console-server";
import { testDbKinds } from "../helpers/db";

// The OpenAPI document against the production build: it is served as generated, every documented
// operation is called (its answers, and the refusals its security, parameters and body imply), and
// every answer is checked against the document by a JSON Schema validator (ajv), never by
// expectations written here. An operation with no call fails the last test.

const PASSWORD = "contract-password-123456";
const ADMIN = { email: "admin@contract.test", password: PASSWORD, role: "admin" as const };
const STAFF = { email: "staff@contract.test", password: PASSWORD, role: "staff" as const };
/** A staff member limited to one branch (docs/API.md, Branch scope): no more an administrator than staff. */
const SCOPED = { email: "scoped@contract.test", password: PASSWORD, role: "staff" as const };
const METHODS = ["get", "post", "patch", "delete"] as const;
type Method = (typeof METHODS)[number];

type Json = Record<string, unknown>;
type Operation = { security?: Json[]; parameters?: { name: string; in: string; schema?: Json }[]; requestBody?: { content: Json; required?: boolean }; responses: Record<string, { $ref?: string; content?: Record<string, unknown> }>; "x-access": string };
type Document = { paths: Record<string, Partial<Record<Method, Operation>>>; components: { responses: Record<string, { content?: Record<string, unknown> }> } };

const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll("~", "~0").replaceAll("/", "~1")).join("/");
const ANY_ID = "2147483647";
const ANY_JOB = "AAAAAAAAAAAAAAAAAAAAAA";

for (const kind of testDbKinds()) {
  describe(`the OpenAPI document against the build on ${kind}`, () => {
    let server: ConsoleServer;
    let admin: Browser;
    let staff: Browser;
    let scoped: Browser;
    let document: Document;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const validators = new Map<string, ValidateFunction>();
    /** "METHOD path status" of every answer checked. */
    const seen = new Set<string>();

    /** Checks an answer against the document: a documented status, its media type, its schema. */
    function check(method: Method, path: string, answer: RawResponse) {
      const op = document.paths[path]?.[method];
      expect(op, `${method} ${path} is documented`).toBeDefined();
      const status = String(answer.status);
      let response = op!.responses[status];
      expect(response, `${method.toUpperCase()} ${path} answered ${status}, which it does not document: ${answer.body.slice(0, 300)}`).toBeDefined();
      let base = pointer("paths", path, method, "responses", status);
      if (response!.$ref) {
        const name = response!.$ref.split("/").at(-1)!;
        response = document.components.responses[name]!;
        base = pointer("components", "responses", name);
      }
      seen.add(`${method} ${path} ${status}`);
      if (!response!.content) {
        expect(answer.body, `${method} ${path} ${status} has no body`).toBe("");
        return;
      }
      const type = String(answer.headers["content-type"] ?? "").split(";")[0]!.trim();
      expect(Object.keys(response!.content), `${method} ${path} ${status}: content type`).toContain(type);
      const key = `${base}/${pointer("content", type, "schema")}`;
      let validate = validators.get(key);
      if (!validate) {
        validate = ajv.getSchema(`openapi.json#/${key}`);
        validators.set(key, validate!);
      }
      const body = type === "application/json" ? JSON.parse(answer.body) : answer.body;
      const valid = validate!(body);
      expect(valid, `${method.toUpperCase()} ${path} ${status}: ${ajv.errorsText(validate!.errors)}\n${answer.body.slice(0, 500)}`).toBe(true);
      return body;
    }

    /** Sends a request as `who` (a Browser, a bearer token or nobody) and checks its answer. */
    async function call(who: Browser | string | null, method: Method, path: string, init: { ids?: Record<string, string | number>; query?: string; json?: unknown; body?: Buffer; headers?: Record<string, string> } = {}) {
      const target = path.replace(/\{(\w+)\}/g, (_, name: string) => String(init.ids?.[name] ?? (path.startsWith("/api/v1/subscribers/imports") || path.startsWith("/api/v1/exports") ? ANY_JOB : ANY_ID))) + (init.query ? `?${init.query}` : "");
      const headers: Record<string, string> = { ...(init.json !== undefined ? { "content-type": "application/json" } : {}), ...init.headers };
      const body = init.json !== undefined ? JSON.stringify(init.json) : init.body;
      const request = { method: method.toUpperCase(), headers, body };
      const answer =
        who instanceof Browser ? await who.request(target, request) : await rawRequest(server.url, target, { ...request, headers: { ...headers, ...(who ? { authorization: `Bearer ${who}` } : {}) } });
      return { answer, body: check(method, path, answer) as Json & { id: number | string } };
    }

    const operations = () => Object.entries(document.paths).flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((m) => ({ path, method: m, op: item[m]! })));

    async function poll<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
      for (let i = 0; i < 120; i++) {
        const value = await read();
        if (done(value)) return value;
        await new Promise((r) => setTimeout(r, 1_000));
      }
      throw new Error("timed out");
    }

    async function newToken(scope: "read" | "export") {
      const { body } = await call(admin, "post", "/api/v1/tokens", { json: { name: `contract ${scope}`, scope, expires_at: new Date(Date.now() + 86_400_000).toISOString() } });
      return body.token as string;
    }

    beforeAll(async () => {
      server = await startConsole(kind, {
        users: [ADMIN, STAFF, SCOPED],
        env: { JOB_POLL_SECONDS: "1" },
        seed: async (run) => void (await run(`INSERT INTO countries (code, name) VALUES ('GB', 'United Kingdom'), ('FR', 'France')`)),
      });
      admin = new Browser(server.url, "127.0.0.61");
      staff = new Browser(server.url, "127.0.0.62");
      scoped = new Browser(server.url, "127.0.0.63");
      expect((await admin.signIn(ADMIN.email, PASSWORD)).status).toBe(200);
      expect((await staff.signIn(STAFF.email, PASSWORD)).status).toBe(200);
      expect((await scoped.signIn(SCOPED.email, PASSWORD)).status).toBe(200);
      const served = await rawRequest(server.url, "/api/v1/openapi.json");
      expect(served.status).toBe(200);
      document = JSON.parse(served.body) as Document;
      ajv.addSchema(document, "openapi.json");
      check("get", "/api/v1/openapi.json", served);
    });
    afterAll(async () => server?.close());

    it("serves the document the code generates, with no session", () => {
      expect(document).toEqual(JSON.parse(JSON.stringify(apiDocument())));
    });

    it("checks with a validator that refuses what the document does not allow", () => {
      const branch = ajv.getSchema(`openapi.json#/${pointer("paths", "/api/v1/branches/{id}", "get", "responses", "200", "content", "application/json", "schema")}`)!;
      const good = { id: 1, name: "A", created_at: "2026-11-27T10:00:00.000Z", updated_at: "2026-11-27T10:00:00.000Z" };
      expect(branch(good)).toBe(true);
      for (const bad of [{ ...good, id: "1" }, { ...good, created_at: "yesterday" }, { ...good, password_hash: "x" }, { name: "A" }]) expect(branch(bad), JSON.stringify(bad)).toBe(false);
      const error = ajv.getSchema(`openapi.json#/${pointer("components", "responses", "Error404", "content", "application/json", "schema")}`)!;
      expect(error({ error: { code: "not_found", message: "No.", request_id: "abc" } })).toBe(true);
      expect(error({ code: "not_found" })).toBe(false);
    });

    it("answers branches, countries and subscribers as documented", async () => {
      const branch = (await call(admin, "post", "/api/v1/branches", { json: { name: "Contract branch" } })).body;
      await call(admin, "post", "/api/v1/branches", { json: { name: "Contract branch" } }); // 409, taken
      await call(staff, "get", "/api/v1/branches", { query: "name=contract&sort=-name" });
      await call(staff, "get", "/api/v1/branches/{id}", { ids: { id: branch.id } });
      await call(admin, "patch", "/api/v1/branches/{id}", { ids: { id: branch.id }, json: { name: "Contract branch, renamed" } });
      const countries = (await call(staff, "get", "/api/v1/countries")).body.data as { id: number; name: string }[];
      const gb = countries.find((c) => c.name === "United Kingdom")!;

      const full = { first_name: "Ada", last_name: "Contract", email: "ada@contract.test", mobile: "07911 123456", branch_id: branch.id, country_id: gb.id, travel_date: "2027-03-01", sheet_name: "Spring", subscription_status: "active", is_mandatory: true };
      const ada = (await call(staff, "post", "/api/v1/subscribers", { json: full })).body;
      const bare = (await call(staff, "post", "/api/v1/subscribers", { json: { first_name: "Bo", last_name: "Contract", email: "ada@contract.test", mobile: "+447911123457", subscription_status: "pending", is_mandatory: false } })).body;
      await call(staff, "get", "/api/v1/subscribers", { query: "q=contract&sort=-created_at" });
      await call(staff, "get", "/api/v1/subscribers", { query: "is_duplicate=true&page=2" });
      const record = (await call(staff, "get", "/api/v1/subscribers/{id}", { ids: { id: ada.id } })).body;
      await call(staff, "patch", "/api/v1/subscribers/{id}", { ids: { id: ada.id }, json: { updated_at: record.updated_at, first_name: "Ada Lovelace", is_duplicate: true } });
      await call(staff, "patch", "/api/v1/subscribers/{id}", { ids: { id: ada.id }, json: { updated_at: record.updated_at, first_name: "Stale" } }); // 409
      await call(admin, "delete", "/api/v1/subscribers/{id}", { ids: { id: bare.id } });
      await call(admin, "delete", "/api/v1/branches/{id}", { ids: { id: (await call(admin, "post", "/api/v1/branches", { json: { name: "Contract, to delete" } })).body.id } });
      for (const status of ["201 post /api/v1/branches", "409 post /api/v1/branches", "409 patch /api/v1/subscribers/{id}", "204 delete /api/v1/subscribers/{id}"]) {
        const [code, method, path] = status.split(" ");
        expect(seen, status).toContain(`${method} ${path} ${code}`);
      }
    });

    it("answers the export, from its request to its file, as documented", async () => {
      const token = await newToken("export");
      await call(token, "post", "/api/v1/subscribers/export", { json: { subscription_status: "active" } });
      await call(token, "post", "/api/v1/subscribers/export", { query: "subscription_status=active" }); // 409 while queued, or 202 when done already
      const status = await poll(async () => (await call(token, "get", "/api/v1/subscribers/export")).body, (s) => s.downloadable_file_status === "completed");
      const id = /^\/api\/v1\/exports\/([^/]+)\/download$/.exec(status.downloadable_file as string)![1]!;
      await call(token, "get", "/api/v1/exports/{id}/download", { ids: { id } });
      // `format` beside a body's filters, in the query string: the file is a workbook.
      await call(token, "post", "/api/v1/subscribers/export", { query: "format=xlsx", json: { subscription_status: "active" } });
      const xlsx = await poll(async () => (await call(token, "get", "/api/v1/subscribers/export")).body, (s) => s.downloadable_file_status === "completed" && (s.file as Json | null)?.format === "xlsx");
      const xlsxId = /^\/api\/v1\/exports\/([^/]+)\/download$/.exec(xlsx.downloadable_file as string)![1]!;
      const download = await call(token, "get", "/api/v1/exports/{id}/download", { ids: { id: xlsxId } });
      expect(download.answer.headers["content-type"]).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
      await call(token, "post", "/api/v1/subscribers/export", { json: { subscription_status: "active", format: "pdf" } }); // 400
    });

    it("answers imports, from a preview to the rejected rows, as documented", async () => {
      const upload = async (fields: Record<string, string>) => {
        const form = new FormData();
        form.set("file", new Blob(["first_name,last_name,email,mobile,subscription_status,is_mandatory\r\nIda,Import,ida@contract.test,+447911123458,active,false\r\nBad,Row,not-an-email,+447911123459,active,false\r\n"]), "contract.csv");
        for (const [k, v] of Object.entries(fields)) form.set(k, v);
        const encoded = new Request("http://localhost/", { method: "POST", body: form });
        return call(staff, "post", "/api/v1/subscribers/imports", { body: Buffer.from(await encoded.arrayBuffer()), headers: { "content-type": encoded.headers.get("content-type")! } });
      };
      expect((await upload({ dry_run: "true" })).answer.status).toBe(200);
      const started = (await upload({ sheet_name: "Contract" })).body;
      const done = await poll(async () => (await call(staff, "get", "/api/v1/subscribers/imports/{id}", { ids: { id: started.id } })).body, (s) => s.status === "completed" || s.status === "failed");
      expect(done.status).toBe("completed");
      await call(staff, "get", "/api/v1/subscribers/imports");
      await call(staff, "get", "/api/v1/subscribers/imports/template");
      await call(staff, "get", "/api/v1/subscribers/imports/{id}/rejected", { ids: { id: started.id } });
    });

    it("answers users and tokens as documented", async () => {
      const made = (await call(admin, "post", "/api/v1/users", { json: { name: "Cleo Contract", email: "cleo@contract.test", role: "staff" } })).body;
      expect(made.set_password_url).toBeTruthy();
      await call(admin, "post", "/api/v1/users", { json: { name: "Cleo again", email: "cleo@contract.test", role: "staff" } }); // 409
      await call(admin, "get", "/api/v1/users", { query: "role=staff&active=true" });
      await call(admin, "patch", "/api/v1/users/{id}", { ids: { id: made.id }, json: { name: "Cleo C.", active: false } });
      const token = (await call(staff, "post", "/api/v1/tokens", { json: { name: "contract", scope: "read", expires_at: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10) } })).body;
      await call(staff, "get", "/api/v1/tokens");
      await call(staff, "delete", "/api/v1/tokens/{id}", { ids: { id: token.id } });
      await call(token.token as string, "get", "/api/v1/branches"); // 401, revoked
      await call(admin, "delete", "/api/v1/users/{id}/two-factor", { ids: { id: made.id } });
      const me = ((await call(admin, "get", "/api/v1/users", { query: "role=admin" })).body.data as { id: number; email: string }[]).find((u) => u.email === ADMIN.email)!;
      await call(admin, "delete", "/api/v1/users/{id}/two-factor", { ids: { id: me.id } }); // 409, yourself
      await call(admin, "delete", "/api/v1/users/{id}/sso", { ids: { id: made.id } }); // 204, not linked: nothing to do
      await call(admin, "patch", "/api/v1/users/{id}", { ids: { id: me.id }, json: { role: "staff" } }); // 409, yourself
      // One's own language: a choice, a refusal, back to following the browser.
      expect((await call(staff, "patch", "/api/v1/users/me", { json: { locale: "fr" } })).body.locale).toBe("fr");
      await call(staff, "patch", "/api/v1/users/me", { json: { locale: "de" } }); // 400
      expect((await call(staff, "patch", "/api/v1/users/me", { json: { locale: null } })).body.locale).toBeNull();
      for (const status of ["204 delete /api/v1/users/{id}/two-factor", "409 delete /api/v1/users/{id}/two-factor", "204 delete /api/v1/users/{id}/sso", "409 patch /api/v1/users/{id}", "200 patch /api/v1/users/me", "400 patch /api/v1/users/me"]) {
        const [code, method, path] = status.split(" ");
        expect(seen, status).toContain(`${method} ${path} ${code}`);
      }
    });

    it("answers webhooks as documented", async () => {
      const url = "https://93.184.215.14/contract";
      const made = (await call(admin, "post", "/api/v1/webhooks", { json: { url, description: "Contract", events: ["subscriber.created"] } })).body;
      expect(made.secret).toMatch(/^whsec_/);
      await call(admin, "post", "/api/v1/webhooks", { json: { url: "https://127.0.0.1/contract", events: ["ping"] } }); // 400, refused target
      await call(admin, "post", "/api/v1/webhooks", { json: { url, events: ["no.such.event"] } }); // 400
      await call(staff, "get", "/api/v1/webhooks"); // 403
      await call(admin, "get", "/api/v1/webhooks");
      await call(admin, "get", "/api/v1/webhooks/{id}", { ids: { id: made.id } });
      await call(admin, "get", "/api/v1/webhooks/{id}"); // 404
      await call(admin, "patch", "/api/v1/webhooks/{id}", { ids: { id: made.id }, json: { enabled: false, events: ["branch.created", "branch.deleted"] } });
      await call(admin, "patch", "/api/v1/webhooks/{id}", { ids: { id: made.id }, json: { events: [] } }); // 400
      const rotated = (await call(admin, "post", "/api/v1/webhooks/{id}/rotate-secret", { ids: { id: made.id } })).body;
      expect(rotated.secret).not.toBe(made.secret);
      await call(admin, "post", "/api/v1/webhooks/{id}/rotate-secret"); // 404
      const delivery = (await call(admin, "post", "/api/v1/webhooks/{id}/test", { ids: { id: made.id } })).body;
      await call(admin, "post", "/api/v1/webhooks/{id}/test"); // 404
      await call(admin, "get", "/api/v1/webhooks/{id}/deliveries", { ids: { id: made.id } });
      await call(admin, "get", "/api/v1/webhooks/{id}/deliveries", { ids: { id: made.id }, query: "page=0" }); // 400
      await call(admin, "post", "/api/v1/webhooks/{id}/deliveries/{delivery_id}/resend", { ids: { id: made.id, delivery_id: delivery.id } });
      await call(admin, "post", "/api/v1/webhooks/{id}/deliveries/{delivery_id}/resend", { ids: { id: made.id } }); // 404
      await call(admin, "delete", "/api/v1/webhooks/{id}", { ids: { id: made.id } });
      await call(admin, "delete", "/api/v1/webhooks/{id}", { ids: { id: made.id } }); // 404
      for (const status of [
        "201 post /api/v1/webhooks",
        "400 post /api/v1/webhooks",
        "404 get /api/v1/webhooks/{id}",
        "400 patch /api/v1/webhooks/{id}",
        "201 post /api/v1/webhooks/{id}/rotate-secret",
        "202 post /api/v1/webhooks/{id}/test",
        "200 post /api/v1/webhooks/{id}/deliveries/{delivery_id}/resend",
        "404 post /api/v1/webhooks/{id}/deliveries/{delivery_id}/resend",
        "204 delete /api/v1/webhooks/{id}",
        "404 delete /api/v1/webhooks/{id}",
      ]) {
        const [code, method, path] = status.split(" ");
        expect(seen, status).toContain(`${method} ${path} ${code}`);
      }
    });

    it("answers saved views as documented", async () => {
      const view = (await call(staff, "post", "/api/v1/views", { json: { resource: "subscribers", name: "Contract view", query: "subscription_status=active&sort=-created_at", columns: ["id", "email"] } })).body;
      await call(staff, "post", "/api/v1/views", { json: { resource: "subscribers", name: "Contract view" } }); // 409, taken
      await call(staff, "post", "/api/v1/views", { json: { resource: "subscribers", name: "Bad query", query: "page=2" } }); // 400
      const shared = (await call(admin, "post", "/api/v1/views", { json: { resource: "branches", name: "Contract shared", query: "sort=name", shared: true } })).body;
      await call(staff, "get", "/api/v1/views");
      await call(staff, "get", "/api/v1/views", { query: "resource=branches" });
      await call(staff, "get", "/api/v1/views/{id}", { ids: { id: view.id } });
      await call(staff, "patch", "/api/v1/views/{id}", { ids: { id: view.id }, json: { name: "Contract view, renamed", shared: true } });
      await call(staff, "patch", "/api/v1/views/{id}", { ids: { id: shared.id }, json: { name: "Not mine" } }); // 403
      await call(staff, "delete", "/api/v1/views/{id}", { ids: { id: shared.id } }); // 403
      await call(staff, "delete", "/api/v1/views/{id}", { ids: { id: view.id } });
      await call(admin, "delete", "/api/v1/views/{id}", { ids: { id: shared.id } });
      for (const status of ["201 post /api/v1/views", "409 post /api/v1/views", "403 patch /api/v1/views/{id}", "204 delete /api/v1/views/{id}"]) {
        const [code, method, path] = status.split(" ");
        expect(seen, status).toContain(`${method} ${path} ${code}`);
      }
    });

    it("answers the trash and bulk changes, with their undo, as documented", async () => {
      const branch = (await call(admin, "post", "/api/v1/branches", { json: { name: "Contract trash" } })).body;
      await call(admin, "delete", "/api/v1/branches/{id}", { ids: { id: branch.id } });
      await call(admin, "get", "/api/v1/trash/branches", { query: "name=contract&sort=-deleted_at" });
      await call(admin, "post", "/api/v1/branches", { json: { name: "Contract trash" } }); // its name is free
      await call(admin, "post", "/api/v1/trash/branches/{id}/restore", { ids: { id: branch.id } }); // 409, the name is taken
      await call(admin, "delete", "/api/v1/trash/branches/{id}", { ids: { id: branch.id } });
      const gone = await call(admin, "post", "/api/v1/branches", { json: { name: "Contract trash, restored" } });
      await call(admin, "delete", "/api/v1/branches/{id}", { ids: { id: gone.body.id } });
      await call(admin, "post", "/api/v1/trash/branches/{id}/restore", { ids: { id: gone.body.id } });

      const person = (await call(staff, "post", "/api/v1/subscribers", { json: { first_name: "Tara", last_name: "Trashcontract", email: "tara@contract.test", mobile: "+447911123460", subscription_status: "pending", is_mandatory: false } })).body;
      await call(admin, "delete", "/api/v1/subscribers/{id}", { ids: { id: person.id } });
      await call(admin, "get", "/api/v1/trash/subscribers", { query: "name=tara&deleted_from=2020-01-01&sort=id" });
      await call(admin, "post", "/api/v1/trash/subscribers/{id}/restore", { ids: { id: person.id } });
      await call(admin, "post", "/api/v1/trash/subscribers/{id}/restore", { ids: { id: person.id } }); // 404, not in the trash now
      await call(admin, "delete", "/api/v1/subscribers/{id}", { ids: { id: person.id } });
      await call(admin, "delete", "/api/v1/trash/subscribers/{id}", { ids: { id: person.id } });

      const other = (await call(staff, "post", "/api/v1/subscribers", { json: { first_name: "Uma", last_name: "Trashcontract", email: "uma@contract.test", mobile: "+447911123461", subscription_status: "pending", is_mandatory: false } })).body;
      const change = (await call(staff, "post", "/api/v1/subscribers/bulk", { json: { filters: { last_name: "Trashcontract" }, change: { is_mandatory: true } } })).body;
      await call(staff, "post", "/api/v1/subscribers/bulk", { json: { ids: [other.id], change: { delete: true } } }); // 403, staff
      await call(staff, "post", "/api/v1/subscribers/bulk", { json: { ids: [other.id], filters: {}, change: { is_mandatory: false } } }); // 400
      await call(staff, "get", "/api/v1/subscribers/bulk/{id}", { ids: { id: change.id } });
      await call(staff, "post", "/api/v1/subscribers/bulk/{id}/undo", { ids: { id: change.id } });
      await call(staff, "post", "/api/v1/subscribers/bulk/{id}/undo", { ids: { id: change.id } }); // 409, undone
      const token = await newToken("read");
      await call(token, "get", "/api/v1/subscribers/bulk/{id}", { ids: { id: change.id } }); // an admin's token reads any
      // The change and its undo are on the author's activity; another user's is an administrator's.
      const activity = (await call(staff, "get", "/api/v1/activity")).body.data as { id: string; status: string }[];
      expect(activity.find((e) => e.id === change.id)?.status).toBe("undone");
      const admins = (await call(admin, "get", "/api/v1/users", { query: "role=admin" })).body.data as { id: number }[];
      await call(staff, "get", "/api/v1/activity", { query: `user_id=${admins[0]!.id}` }); // 403
      await call(admin, "get", "/api/v1/activity", { query: `user_id=${admins[0]!.id}&page=2` });
      for (const status of ["409 post /api/v1/trash/branches/{id}/restore", "200 post /api/v1/trash/branches/{id}/restore", "404 post /api/v1/trash/subscribers/{id}/restore",
        "200 post /api/v1/subscribers/bulk", "403 post /api/v1/subscribers/bulk", "409 post /api/v1/subscribers/bulk/{id}/undo", "200 get /api/v1/subscribers/bulk/{id}",
        "200 get /api/v1/activity", "403 get /api/v1/activity"]) {
        const [code, method, path] = status.split(" ");
        expect(seen, status).toContain(`${method} ${path} ${code}`);
      }
    });

    it("answers the duplicates review as documented", async () => {
      const make = async (first_name: string, email: string, mobile: string) =>
        (await call(staff, "post", "/api/v1/subscribers", { json: { first_name, last_name: "Twice", email, mobile, subscription_status: "active", is_mandatory: false } })).body;
      const one = await make("Dee", "dee@twice.test", "+447911200001");
      const two = await make("Dee", "DEE@twice.test", "+447911200002");
      const groups = (await call(staff, "get", "/api/v1/subscribers/duplicates", { query: "rule=email&q=twice" })).body;
      expect((groups.data as { subscribers: { id: number }[] }[])[0]!.subscribers.map((m) => m.id)).toEqual([two.id, one.id]);
      await call(staff, "post", "/api/v1/subscribers/duplicates/dismiss", { json: { ids: [one.id, two.id] } });
      await call(staff, "post", "/api/v1/subscribers/duplicates/dismiss", { json: { ids: [one.id] } }); // 400
      await call(staff, "post", "/api/v1/subscribers/duplicates/dismiss", { json: { ids: [one.id, 2_000_000_000] } }); // 404
      await call(admin, "post", "/api/v1/subscribers/duplicates/dismiss/undo", { json: { ids: [one.id, two.id] } });
      const members = (groups.data as { subscribers: { id: number; updated_at: string }[] }[])[0]!.subscribers;
      const updated_at = Object.fromEntries(members.map((m) => [String(m.id), m.updated_at]));
      await call(admin, "post", "/api/v1/subscribers/merge", { json: { survivor_id: one.id, merged_ids: [two.id], values: { not_a_field: two.id }, updated_at } }); // 400
      const merged = (await call(admin, "post", "/api/v1/subscribers/merge", { json: { survivor_id: one.id, merged_ids: [two.id], values: { first_name: two.id }, updated_at } })).body;
      await call(admin, "post", "/api/v1/subscribers/merge", { json: { survivor_id: one.id, merged_ids: [two.id], updated_at } }); // 404: in the trash now
      await call(admin, "post", "/api/v1/subscribers/merges/{merge_id}/undo", { ids: { merge_id: merged.merge_id as string } });
      await call(admin, "post", "/api/v1/subscribers/merges/{merge_id}/undo", { ids: { merge_id: merged.merge_id as string } }); // 409, undone
      for (const status of [
        "200 post /api/v1/subscribers/duplicates/dismiss",
        "400 post /api/v1/subscribers/duplicates/dismiss",
        "404 post /api/v1/subscribers/duplicates/dismiss",
        "200 post /api/v1/subscribers/duplicates/dismiss/undo",
        "200 post /api/v1/subscribers/merge",
        "400 post /api/v1/subscribers/merge",
        "200 post /api/v1/subscribers/merges/{merge_id}/undo",
        "409 post /api/v1/subscribers/merges/{merge_id}/undo",
      ]) {
        const [code, method, path] = status.split(" ");
        expect(seen, status).toContain(`${method} ${path} ${code}`);
      }
    });

    it("answers a person's data, its erasure and retention's dry run as documented", async () => {
      const email = "pat.contract@people.test";
      const made = (await call(staff, "post", "/api/v1/subscribers", { json: { first_name: "Pat", last_name: "Contract", email, mobile: "+447400300001", subscription_status: "active", is_mandatory: false } })).answer;
      expect(made.status, made.body).toBe(201);
      await call(admin, "get", "/api/v1/people/export", { query: `email=${encodeURIComponent(email)}` });
      await call(staff, "get", "/api/v1/people/export", { query: `email=${encodeURIComponent(email)}` }); // 403
      await call(admin, "get", "/api/v1/people/retention", { query: "erase_after_days=30" });
      await call(staff, "get", "/api/v1/people/retention"); // 403
      await call(staff, "post", "/api/v1/people/erase", { json: { email, confirm: true } }); // 403
      await call(admin, "post", "/api/v1/people/erase", { json: { email } }); // 400: not confirmed
      const erased = (await call(admin, "post", "/api/v1/people/erase", { json: { email, confirm: true } })).body;
      expect(erased.erased_subscribers).toBe(1);
      await call(admin, "get", "/api/v1/people/export", { query: `email=${encodeURIComponent(email)}` }); // 404: nothing left
      for (const status of [
        "200 get /api/v1/people/export",
        "403 get /api/v1/people/export",
        "404 get /api/v1/people/export",
        "200 get /api/v1/people/retention",
        "403 get /api/v1/people/retention",
        "200 post /api/v1/people/erase",
        "400 post /api/v1/people/erase",
        "403 post /api/v1/people/erase",
      ]) {
        const [code, method, path] = status.split(" ");
        expect(seen, status).toContain(`${method} ${path} ${code}`);
      }
    });

    it("answers the refusals each operation's security, parameters and body imply, as documented", async () => {
      const read = await newToken("read");
      for (const { path, method, op } of operations()) {
        const secured = (op.security ?? []).length > 0;
        const byToken = (op.security ?? []).find((s) => "bearer" in s)?.bearer as string[] | undefined;
        if (secured) expect((await call(null, method, path)).answer.status, `${method} ${path} anonymous`).toBe(401);
        if (secured && !byToken?.includes("read")) expect((await call(read, method, path)).answer.status, `${method} ${path} read token`).toBe(403);
        if (op["x-access"] === "admin") expect((await call(staff, method, path)).answer.status, `${method} ${path} staff`).toBe(403);
        if (op.requestBody && "application/json" in op.requestBody.content) {
          expect((await call(admin, method, path, { json: ["not", "an", "object"] })).answer.status, `${method} ${path} array body`).toBe(400);
        }
        const option = (op.parameters ?? []).find((p) => p.in === "query" && Array.isArray(p.schema?.enum));
        if (option && method === "get") expect((await call(admin, method, path, { query: `${option.name}=not-an-option` })).answer.status, `${method} ${path} ${option.name}`).toBe(400);
        if ((op.parameters ?? []).some((p) => p.in === "path") && (method === "get" || method === "delete")) {
          expect((await call(admin, method, path)).answer.status, `${method} ${path} unknown id`).toBe(404);
        }
      }
    });

    it("answers hostile requests to every operation with a documented refusal: methods, paths, ids, bodies, queries, roles", async () => {
      const errorShape = ajv.getSchema(`openapi.json#/${pointer("components", "responses", "Error400", "content", "application/json", "schema")}`)!;
      /** An answer to what no operation documents (a method, a path): a 4xx in the error shape all the same. */
      const refused = (answer: RawResponse, what: string, statuses: number[]) => {
        expect(statuses, `${what}: ${answer.status} ${answer.body.slice(0, 300)}`).toContain(answer.status);
        expect(answer.headers["content-type"], what).toMatch(/^application\/json/);
        expect(errorShape(JSON.parse(answer.body)), `${what}: ${ajv.errorsText(errorShape.errors)}`).toBe(true);
      };
      const fieldsOf = (body: Json) => Object.keys((body.error as { fields?: Json }).fields ?? {});
      const anyId = (path: string) => (path.startsWith("/api/v1/subscribers/imports") || path.startsWith("/api/v1/exports") ? ANY_JOB : ANY_ID);
      const concrete = (path: string) => path.replace(/\{(\w+)\}/g, () => anyId(path));

      // Methods a path does not have: 405 with the Allow that OPTIONS (Next's own answer) gives.
      for (const [path, item] of Object.entries(document.paths)) {
        const own = METHODS.filter((m) => item[m]).map((m) => m.toUpperCase());
        const allow = [...new Set(["OPTIONS", ...own, ...(own.includes("GET") ? ["HEAD"] : [])])].sort().join(", ");
        const options = await admin.request(concrete(path), { method: "OPTIONS" });
        expect({ status: options.status, allow: options.headers.allow }, `OPTIONS ${path}`).toEqual({ status: 204, allow });
        for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"].filter((m) => !allow.split(", ").includes(m))) {
          const answer = await admin.request(concrete(path), { method, headers: { "content-type": "application/json" }, body: method === "HEAD" ? undefined : "{}" });
          expect(answer.headers.allow, `${method} ${path}`).toBe(allow);
          if (method === "HEAD") expect(answer.status, `HEAD ${path}`).toBe(405);
          else refused(answer, `${method} ${path}`, [405]);
        }
      }

      const staffToken = (await call(staff, "post", "/api/v1/tokens", { json: { name: "contract staff", scope: "read", expires_at: new Date(Date.now() + 86_400_000).toISOString() } })).body.token as string;
      const branch = (await call(admin, "post", "/api/v1/branches", { json: { name: "Contract scope" } })).body;
      const users = (await call(admin, "get", "/api/v1/users", { query: "email=scoped%40contract.test" })).body.data as { id: number }[];
      await call(admin, "patch", "/api/v1/users/{id}", { ids: { id: users[0]!.id }, json: { branch_ids: [branch.id] } });
      const BAD_IDS = ["abc", "-1", "0", "01", "+1", "1e3", "1.0", "0x1", "%201", "1%20", "99999999999999999999", "%00", "%E2%82%AC"];
      const JSON_TYPE = { "content-type": "application/json" };

      for (const { path, method, op } of operations()) {
        const what = `${method.toUpperCase()} ${path}`;
        // A segment more than the route has: the catch-all's 404, or the 405 of the route it then names.
        const extra = await admin.request(`${concrete(path)}/extra`, { method: method.toUpperCase(), ...(method === "get" || method === "delete" ? {} : { headers: JSON_TYPE, body: "{}" }) });
        refused(extra, `${what}/extra`, [404, 405]);

        // An id in any spelling but its digits names nothing (checked before any body is read).
        const params = (op.parameters ?? []).filter((p) => p.in === "path");
        if (params.length && !op.requestBody) {
          for (const bad of BAD_IDS) {
            for (const p of params) expect((await call(admin, method, path, { ids: { [p.name]: bad } })).answer.status, `${what} ${p.name}=${bad}`).toBe(404);
          }
        }

        // A documented query parameter given twice: 400 naming it.
        if (method === "get") {
          for (const p of (op.parameters ?? []).filter((q) => q.in === "query")) {
            const { answer, body } = await call(admin, method, path, { query: `${p.name}=1&${p.name}=2` });
            expect(answer.status, `${what}?${p.name} twice`).toBe(400);
            expect(fieldsOf(body), `${what}?${p.name} twice`).toContain(p.name);
          }
        }

        // Administrators' operations: as refused to a scoped staff member and a staff member's token as to staff.
        if (op["x-access"] === "admin") {
          expect((await call(scoped, method, path)).answer.status, `${what} scoped staff`).toBe(403);
          expect((await call(staffToken, method, path)).answer.status, `${what} staff token`).toBe(403);
        }

        if (!op.requestBody || !("application/json" in op.requestBody.content)) continue;
        const send = (body: string | Buffer, headers: Record<string, string> = JSON_TYPE) => call(admin, method, path, { body: Buffer.from(body), headers });
        for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json-patch+json", "application/jsonx", "json"]) {
          expect((await send('{"name":"x"}', { "content-type": type })).answer.status, `${what} as ${type}`).toBe(415);
        }
        expect((await send('{"name":"x"}', {})).answer.status, `${what} with no Content-Type`).toBe(415);
        const large = await send(JSON.stringify({ name: "a".repeat(1024 * 1024) }));
        expect(large.answer.status, `${what} 1 MB`).toBe(413);
        for (const [text, field] of [
          ['{"name":"a","name":"b"}', "name"],
          ['{"filters":{"email":"a","email":"b"},"ids":[1]}', "filters.email"],
          ['{"ids":[1,2],"change":{"is_mandatory":true},"ids":[3,4]}', "ids"],
          ['{"__proto__":{"a":1},"__proto__":{"a":2}}', "__proto__"],
        ]) {
          const { answer, body } = await send(text!);
          expect(answer.status, `${what} ${text}`).toBe(400);
          expect(fieldsOf(body), `${what} ${text}`).toEqual([field]);
        }
        for (const text of ['{"__proto__":{"role":"admin"},"constructor":{"prototype":{"role":"admin"}}}', "null", "5", '"text"', "[]", "{", '{"a":1,}']) {
          expect((await send(text)).answer.status, `${what} ${text}`).toBe(400);
        }
        expect((await send(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]))).answer.status, `${what} not UTF-8`).toBe(400);
        if (op.requestBody.required) {
          const empty = (await send("")).answer.status;
          expect(empty >= 400 && empty < 500, `${what} with an empty body: ${empty}`).toBe(true);
        }
      }
    });

    it("called every documented operation with a success and with an error", () => {
      for (const { path, method, op } of operations()) {
        const statuses = [...seen].filter((s) => s.startsWith(`${method} ${path} `)).map((s) => s.split(" ")[2]!);
        expect(statuses.filter((s) => s.startsWith("2")), `${method.toUpperCase()} ${path}: a success`).not.toEqual([]);
        if (op.security?.length) expect(statuses.filter((s) => s.startsWith("4")), `${method.toUpperCase()} ${path}: a refusal`).not.toEqual([]);
      }
    });
  });
}
