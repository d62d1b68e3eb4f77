import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtServerActions } from "../helpers/built-app";
import { Browser, startConsole, type ConsoleServer } from "../helpers/console-server";
import { testDbKinds } from "../helpers/db";
import { seedSubscribers } from "../helpers/export-data";

// Saved views against the production build over real HTTP, with real sessions: the default view
// a bare list opens with, `view=all`, the Views menu naming the view the address is, the page's
// rows equal to the API's for the view's query (a scoped user's within their branches), the API's
// answers to other users, and the API as an attacker calls it.

const PASSWORD = "views-http-password-1";
const STAFF = { email: "staff@views.test", password: PASSWORD, role: "staff" as const, name: "Sam Staff" };
const OTHER = { email: "other@views.test", password: PASSWORD, role: "staff" as const, name: "Olga Other" };
const ADMIN = { email: "admin@views.test", password: PASSWORD, role: "admin" as const, name: "Ada Admin" };
/** A staff member who sees branch 1 (Northgate) only. */
const SCOPED = { email: "scoped@views.test", password: PASSWORD, role: "staff" as const, name: "Nell Northgate" };
/** A staff member who publishes shared views as fast as they can. */
const FLOOD = { email: "flood@views.test", password: PASSWORD, role: "staff" as const, name: "Flo Flood" };
/** VIEWS_PER_USER's default. */
const VIEWS_PER_USER = 50;

const owner = (email: string) => `(SELECT id FROM users WHERE email = '${email}')`;
const seed = async (run: (text: string) => Promise<unknown>) => {
  await seedSubscribers(run, 60);
  await run(`INSERT INTO saved_views (owner_id, resource, name, query, shared, updated_at) VALUES
    (${owner(STAFF.email)}, 'subscribers', 'Pending mandatory', 'subscription_status=pending&is_mandatory=true', false, now()),
    (${owner(STAFF.email)}, 'subscribers', 'Old region', 'region=north', false, now()),
    (${owner(OTHER.email)}, 'subscribers', 'Olga private', 'subscription_status=expired', false, now()),
    (${owner(OTHER.email)}, 'subscribers', 'Olga shared active', 'subscription_status=active&sort=first_name', true, now())`);
  await run(`INSERT INTO saved_view_defaults (user_id, resource, view_id)
    SELECT owner_id, resource, id FROM saved_views WHERE name = 'Pending mandatory'`);
  await run(`UPDATE users SET branch_scoped = true WHERE email = '${SCOPED.email}'`);
  await run(`INSERT INTO user_branches (user_id, branch_id) SELECT id, 1 FROM users WHERE email = '${SCOPED.email}'`);
};

/** The record links of the list's rows (each carries the list's address back: `?back=…`). */
const rowIds = (html: string) => [...new Set([...html.matchAll(/href="\/subscribers\/(\d+)(?:\?back=[^"]*)?"/g)].map((m) => Number(m[1])))];

for (const kind of testDbKinds()) {
  describe(`saved views over HTTP on ${kind}`, () => {
    let server: ConsoleServer;
    let staff: Browser;
    let other: Browser;
    let admin: Browser;
    let scoped: Browser;
    let flood: Browser;
    const json = (method: string, body: unknown) => ({ method, headers: { "content-type": "application/json", origin: server.url }, body: JSON.stringify(body) });
    const viewsOf = async (who: Browser) => (JSON.parse((await who.request("/api/v1/views?resource=subscribers")).body) as { data: { id: number; name: string; problem: string | null }[] }).data;

    beforeAll(async () => {
      server = await startConsole(kind, { users: [STAFF, OTHER, ADMIN, SCOPED, FLOOD], seed });
      staff = new Browser(server.url, "127.0.0.51");
      other = new Browser(server.url, "127.0.0.52");
      admin = new Browser(server.url, "127.0.0.53");
      scoped = new Browser(server.url, "127.0.0.54");
      flood = new Browser(server.url, "127.0.0.55");
      for (const [who, user] of [[staff, STAFF], [other, OTHER], [admin, ADMIN], [scoped, SCOPED], [flood, FLOOD]] as const) expect((await who.signIn(user.email, PASSWORD)).status).toBe(200);
    });
    afterAll(async () => server?.close());

    it("opens a bare list on the user's default view; view=all is the whole list; anyone else's bare list is theirs", async () => {
      const bare = await staff.request("/subscribers");
      expect(bare.status).toBe(307);
      expect(bare.headers.location).toMatch(/\/subscribers\?subscription_status=pending&is_mandatory=true$/);
      const all = await staff.request("/subscribers?view=all");
      expect(all.status).toBe(200);
      expect(all.body).toMatch(/aria-current="page"[^>]*>All subscribers</);
      expect((await staff.request("/subscribers?view=everything")).status).toBe(400);
      // Someone with no default view: the bare list is the whole list, and the menu says so.
      const otherBare = await other.request("/subscribers");
      expect(otherBare.status).toBe(200);
      expect(otherBare.body).toMatch(/aria-current="page"[^>]*>All subscribers</);
      expect((await other.request("/subscribers?subscription_status=pending")).body).not.toMatch(/aria-current="page"[^>]*>All subscribers</);
    });

    it("the view's address: the menu names it, the export panel names it, and its rows are the API's for its query", async () => {
      const page = await staff.request("/subscribers?subscription_status=pending&is_mandatory=true");
      expect(page.status).toBe(200);
      expect(page.body).toMatch(/Views(<!-- -->)?: <bdi>Pending mandatory<\/bdi>/);
      expect(page.body).toContain("The view “<bdi");
      const api = JSON.parse((await staff.request("/api/v1/subscribers?subscription_status=pending&is_mandatory=true")).body) as { data: { id: number }[] };
      expect(api.data.length).toBeGreaterThan(0);
      expect(rowIds(page.body)).toEqual(api.data.map((s) => s.id));
      // The shared view of another user: a link in the menu, and the same rows as its query.
      expect(page.body).toContain('href="/subscribers?subscription_status=active&amp;sort=first_name"');
      const shared = await other.request("/subscribers?sort=first_name&subscription_status=active");
      expect(shared.body).toMatch(/Views(<!-- -->)?: <bdi>Olga shared active<\/bdi>/);
    });

    it("a shared view shows a scoped user the rows of their branches only, named as the view", async () => {
      const address = "/subscribers?sort=first_name&subscription_status=active";
      const api = (who: Browser) => who.request("/api/v1/subscribers?subscription_status=active&sort=first_name").then((r) => JSON.parse(r.body) as { data: { id: number; branch_name: string | null }[]; pagination: { total: number } });
      const [mine, everyone] = [await api(scoped), await api(other)];
      expect(mine.data.length).toBeGreaterThan(0);
      expect(mine.data.every((s) => s.branch_name === "Northgate")).toBe(true);
      expect(mine.pagination.total).toBeLessThan(everyone.pagination.total);
      const page = await scoped.request(address);
      expect(page.status).toBe(200);
      expect(page.body).toMatch(/Views(<!-- -->)?: <bdi>Olga shared active<\/bdi>/);
      expect(rowIds(page.body)).toEqual(mine.data.map((s) => s.id));
      // The export panel counts the same rows: the view's filters within the user's branches.
      expect(page.body.replaceAll("<!-- -->", "")).toContain(`${mine.pagination.total} subscribers match the current filters and will be exported.`);
      expect((await viewsOf(scoped)).map((v) => v.name)).toEqual(["Olga shared active"]);
    });

    it("lists every list's views when resource is left out", async () => {
      const made = await staff.request("/api/v1/views", json("POST", { resource: "branches", name: "Branches by name", query: "sort=name" }));
      expect(made.status, made.body).toBe(201);
      const all = JSON.parse((await staff.request("/api/v1/views")).body) as { data: { name: string; resource: string }[] };
      expect(new Set(all.data.map((v) => v.resource))).toEqual(new Set(["subscribers", "branches"]));
      expect(all.data.map((v) => v.name)).toContain("Branches by name");
      expect((await staff.request("/api/v1/views?resource=audit")).status).toBe(400);
      const branchesOnly = JSON.parse((await staff.request("/api/v1/views?resource=branches")).body) as { data: { resource: string }[] };
      expect(branchesOnly.data.every((v) => v.resource === "branches")).toBe(true);
    });

    it("shows a view its list no longer accepts as broken, with the reason", async () => {
      const page = await staff.request("/subscribers?view=all");
      expect(page.body).toContain("Old region");
      expect(page.body).toMatch(/broken:[\s\S]{0,200}region: The subscribers list has no filter/);
      expect((await viewsOf(staff)).find((v) => v.name === "Old region")?.problem).toMatch(/no filter "region"/);
    });

    it("the API: create, 400 for a query the list refuses, private views unseen, shared views changed by admins only", async () => {
      const made = await staff.request("/api/v1/views", json("POST", { resource: "subscribers", name: "Mine over HTTP", query: "subscription_status=cancelled", shared: true }));
      expect(made.status, made.body).toBe(201);
      const id = (JSON.parse(made.body) as { id: number }).id;
      const refused = await staff.request("/api/v1/views", json("POST", { resource: "subscribers", name: "Bad", query: "subscription_status=archived" }));
      expect(refused.status).toBe(400);
      expect(refused.body).toContain("subscription_status");
      expect((await staff.request("/api/v1/views", json("POST", { resource: "subscribers", name: "Mine over HTTP" }))).status).toBe(409);

      const olga = await viewsOf(other);
      const privateId = olga.find((v) => v.name === "Olga private")!.id;
      expect((await viewsOf(staff)).map((v) => v.name)).not.toContain("Olga private");
      expect((await admin.request(`/api/v1/views/${privateId}`)).status).toBe(404);
      expect((await admin.request(`/api/v1/views/${privateId}`, json("PATCH", { name: "Taken" }))).status).toBe(404);

      expect((await other.request(`/api/v1/views/${id}`, json("PATCH", { name: "Not yours" }))).status).toBe(403);
      expect((await other.request(`/api/v1/views/${id}`, { method: "DELETE", headers: { origin: server.url } })).status).toBe(403);
      expect((await admin.request(`/api/v1/views/${id}`, json("PATCH", { name: "Renamed by an admin" }))).status).toBe(200);
      expect((await admin.request(`/api/v1/views/${id}`, { method: "DELETE", headers: { origin: server.url } })).status).toBe(204);
      expect((await viewsOf(staff)).map((v) => v.name)).not.toContain("Renamed by an admin");
    });

    describe("the API as an attacker calls it", () => {
      type Answer = { status: number; body: string };
      const errorOf = (answer: Answer) => (JSON.parse(answer.body) as { error: { code: string; message: string; fields?: Record<string, string[]> } }).error;
      const raw = (method: string, body: string | Buffer, type = "application/json") => ({ method, headers: { "content-type": type, origin: server.url }, body });
      const row = async (who: Browser, id: number) => JSON.parse((await who.request(`/api/v1/views/${id}`)).body) as { name: string; query: string; columns: string[] | null; shared: boolean; updated_at: string };
      let mine = 0;
      let olgaPrivate = 0;
      let olgaShared = 0;

      beforeAll(async () => {
        const made = await staff.request("/api/v1/views", json("POST", { resource: "subscribers", name: "Target", query: "subscription_status=pending" }));
        expect(made.status, made.body).toBe(201);
        mine = (JSON.parse(made.body) as { id: number }).id;
        const olga = await viewsOf(other);
        olgaPrivate = olga.find((v) => v.name === "Olga private")!.id;
        olgaShared = olga.find((v) => v.name === "Olga shared active")!.id;
      });

      it("refuses a field sent twice: in the body, the query string, and the view's query", async () => {
        const twice = await staff.request("/api/v1/views", raw("POST", '{"resource":"subscribers","name":"Twice A","name":"Twice B"}'));
        expect(twice.status, twice.body).toBe(400);
        expect(errorOf(twice).fields).toHaveProperty("name");
        const patched = await staff.request(`/api/v1/views/${mine}`, raw("PATCH", '{"shared":false,"query":"","shared":true}'));
        expect(patched.status, patched.body).toBe(400);
        expect(errorOf(patched).fields).toHaveProperty("shared");
        expect(await row(staff, mine)).toMatchObject({ query: "subscription_status=pending", shared: false });
        const listed = await staff.request("/api/v1/views?resource=subscribers&resource=branches");
        expect(listed.status).toBe(400);
        expect(errorOf(listed).fields).toHaveProperty("resource");
        const query = await staff.request("/api/v1/views", json("POST", { resource: "subscribers", name: "Twice status", query: "subscription_status=active&subscription_status=expired" }));
        expect(query.status).toBe(400);
        expect(errorOf(query).fields?.query?.join(" ")).toMatch(/subscription_status: Give this parameter only once/);
        expect((await viewsOf(staff)).map((v) => v.name).filter((n) => n.startsWith("Twice"))).toEqual([]);
      });

      it("answers extra path segments and other spellings of an id with 404, and leaves the view alone", async () => {
        const before = await row(staff, mine);
        const calls = [{ method: "GET" }, json("PATCH", { name: "Renamed by path" }), { method: "DELETE", headers: { origin: server.url } }];
        // One spelling per id: any other is the 404 of an unknown view.
        for (const path of [`0${mine}`, `${mine}.0`, `+${mine}`, `%20${mine}`, `${mine}%20`, `0x${mine.toString(16)}`, `${mine}e0`, `${mine}n`, "0", "-1", "2147483648", "%EF%BC%91", "__proto__", "constructor"]) {
          for (const init of calls) {
            const method = init.method;
            const answer = await staff.request(`/api/v1/views/${path}`, init);
            expect(answer.status, `${method} /api/v1/views/${path}: ${answer.body.slice(0, 120)}`).toBe(404);
          }
        }
        // Segments past the id, or an escaped slash, reach no handler: 404 (405 for a write the server answers for unknown paths).
        for (const path of [`${mine}/extra`, `${mine}/${mine}`, `${mine}%2Fextra`, `${mine}%2F`, `${mine}/..%2F${mine}`, "extra/more"]) {
          for (const init of calls) {
            const method = init.method;
            const answer = await staff.request(`/api/v1/views/${path}`, init);
            expect(method === "GET" ? [404] : [404, 405], `${method} /api/v1/views/${path}: ${answer.status} ${answer.body.slice(0, 120)}`).toContain(answer.status);
          }
        }
        expect(await row(staff, mine)).toEqual(before);
        expect((await staff.request(`/api/v1/views/${mine}`, json("PUT", { name: "Put" }))).status).toBe(405);
        expect((await staff.request(`/api/v1/views/${mine}`, json("POST", { name: "Post" }))).status).toBe(405);
      });

      it("takes JSON only: other content types are 415, other JSON values and broken bytes 400", async () => {
        const body = JSON.stringify({ resource: "subscribers", name: "Typed" });
        for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml", "application/jsonx", ""]) {
          const answer = await staff.request("/api/v1/views", raw("POST", body, type));
          expect(answer.status, `${type}: ${answer.body}`).toBe(415);
          expect((await staff.request(`/api/v1/views/${mine}`, raw("PATCH", '{"name":"Typed"}', type))).status, type).toBe(415);
        }
        for (const text of ["[]", '"name"', "null", "1", "{", '{"name":}', "[{\"resource\":\"subscribers\",\"name\":\"In a list\"}]"]) {
          const answer = await staff.request("/api/v1/views", raw("POST", text));
          expect(answer.status, `${text}: ${answer.body}`).toBe(400);
        }
        const latin1 = await staff.request("/api/v1/views", raw("POST", Buffer.from('{"resource":"subscribers","name":"Caf\xe9"}', "latin1")));
        expect(latin1.status, latin1.body).toBe(400);
        expect((await viewsOf(staff)).map((v) => v.name)).not.toContain("Typed");
      });

      it("refuses oversized names, queries and bodies, and names with controls or bidi overrides", async () => {
        // With its length declared, as clients send JSON: a body past 64 KB is refused before it is read.
        const sized = (method: string, body: unknown) => {
          const init = json(method, body);
          return { ...init, headers: { ...init.headers, "content-length": String(Buffer.byteLength(init.body)) } };
        };
        for (const [name, status] of [["x".repeat(61), 400], ["x".repeat(10_000), 400], ["x".repeat(100_000), 413], ["Evil\u202Egnp.exe", 400], ["Nul\u0000", 400], ["   ", 400]] as const) {
          const answer = await staff.request("/api/v1/views", sized("POST", { resource: "subscribers", name, query: "" }));
          expect(answer.status, `${name.slice(0, 20)}… (${name.length}): ${answer.body.slice(0, 200)}`).toBe(status);
          if (status === 400) expect(errorOf(answer).fields).toHaveProperty("name");
          const renamed = await staff.request(`/api/v1/views/${mine}`, sized("PATCH", { name }));
          expect(renamed.status, `PATCH ${name.length}`).toBe(status);
        }
        const long = await staff.request("/api/v1/views", json("POST", { resource: "subscribers", name: "Long query", query: `q=${"a".repeat(2000)}` }));
        expect(long.status).toBe(400);
        expect(errorOf(long).fields).toHaveProperty("query");
        // Filters the list takes (100 characters each) that escape past what a view keeps.
        const escaped = ["q", "first_name", "last_name", "email"].map((k) => `${k}=${"€".repeat(100)}`).join("&");
        for (const answer of [
          await staff.request("/api/v1/views", json("POST", { resource: "subscribers", name: "Escaped query", query: escaped })),
          await staff.request(`/api/v1/views/${mine}`, json("PATCH", { query: escaped })),
        ]) {
          expect(answer.status, answer.body).toBe(400);
          expect(errorOf(answer).fields?.query?.join(" ")).toMatch(/a view keeps at most 2000/);
        }
        expect((await row(staff, mine)).name).toBe("Target");
        const sixty = await staff.request("/api/v1/views", json("POST", { resource: "subscribers", name: "y".repeat(60) }));
        expect(sixty.status, sixty.body).toBe(201);
      });

      it("names __proto__ and constructor keys as unknown, in the body and in the view's query, and sets nothing through them", async () => {
        for (const text of [
          '{"resource":"subscribers","name":"Proto","__proto__":{"shared":true}}',
          '{"resource":"subscribers","name":"Proto","constructor":{"prototype":{"shared":true}}}',
          '{"resource":"subscribers","name":"Proto","__proto__":{"owner_id":1}}',
        ]) {
          const answer = await staff.request("/api/v1/views", raw("POST", text));
          expect(answer.status, `${text}: ${answer.body}`).toBe(400);
          expect(answer.body).toMatch(/__proto__|constructor/);
        }
        const patched = await staff.request(`/api/v1/views/${mine}`, raw("PATCH", '{"__proto__":{"shared":true}}'));
        expect(patched.status, patched.body).toBe(400);
        for (const query of ["__proto__=1", "constructor=1", "__proto__[shared]=true", "toString=x"]) {
          const answer = await staff.request("/api/v1/views", json("POST", { resource: "subscribers", name: "Proto query", query }));
          expect(answer.status, `${query}: ${answer.body}`).toBe(400);
          expect(Object.keys(errorOf(answer).fields ?? {})).toEqual(["query"]);
          expect(errorOf(answer).message).toContain(query.split("=")[0]);
        }
        const columns = await staff.request("/api/v1/views", json("POST", { resource: "subscribers", name: "Proto columns", columns: ["__proto__"] }));
        expect(columns.status).toBe(400);
        // Nothing leaked into later answers: a new view is private, and the caller's own.
        const plain = await staff.request("/api/v1/views", json("POST", { resource: "subscribers", name: "After proto" }));
        expect(JSON.parse(plain.body)).toMatchObject({ shared: false, owner: { name: STAFF.name } });
        expect((await viewsOf(staff)).map((v) => v.name).filter((n) => n.startsWith("Proto"))).toEqual([]);
        expect((await staff.request("/api/v1/views?__proto__=x&constructor=y&resource=subscribers")).status).toBe(200);
      });

      it("answers someone else's private view with the same 404 as no view, to staff and admins, whatever the method", async () => {
        const same = (body: string) => ({ ...errorOf({ status: 0, body }), request_id: undefined });
        const missing = await staff.request("/api/v1/views/2147483647");
        expect(missing.status).toBe(404);
        for (const who of [staff, admin]) {
          for (const init of [{ method: "GET" }, json("PATCH", { name: "Taken over", shared: true }), { method: "DELETE", headers: { origin: server.url } }]) {
            const method = init.method;
            const answer = await who.request(`/api/v1/views/${olgaPrivate}`, init);
            expect(answer.status, `${method}: ${answer.body}`).toBe(404);
            expect(same(answer.body)).toEqual(same(missing.body));
          }
          // Nor can it be made one's default, nor read through the list.
          expect((await viewsOf(who)).map((v) => v.id)).not.toContain(olgaPrivate);
        }
        expect(await row(other, olgaPrivate)).toMatchObject({ name: "Olga private", shared: false });
      });

      it("answers staff changing or deleting someone else's shared view with 403, field by field, and leaves it alone", async () => {
        const before = await row(other, olgaShared);
        for (const change of [{ name: "Mine now" }, { query: "" }, { columns: ["id"] }, { shared: false }, {}]) {
          const answer = await staff.request(`/api/v1/views/${olgaShared}`, json("PATCH", change));
          expect(answer.status, JSON.stringify(change)).toBe(403);
          expect(errorOf(answer).code).toBe("forbidden");
        }
        expect((await staff.request(`/api/v1/views/${olgaShared}`, { method: "DELETE", headers: { origin: server.url } })).status).toBe(403);
        expect(await row(other, olgaShared)).toEqual(before);
      });

      it("refuses a write from another site, even with the user's session", async () => {
        for (const origin of ["https://evil.example", "null"]) {
          const answer = await staff.request(`/api/v1/views/${mine}`, { method: "PATCH", headers: { "content-type": "application/json", origin }, body: JSON.stringify({ name: "Cross-site" }) });
          expect(answer.status, origin).toBe(403);
          expect(errorOf(answer).code).toBe("cross_site_request");
        }
        expect((await row(staff, mine)).name).toBe("Target");
      });
    });

    it("the views page lists the list's views with their state", async () => {
      const page = await staff.request(`/views?resource=subscribers&back=${encodeURIComponent("/subscribers?subscription_status=active")}`);
      expect(page.status).toBe(200);
      expect(page.body).toContain("Subscriber views");
      expect(page.body).toContain("Pending mandatory");
      expect(page.body).toContain("Your default");
      expect(page.body).toContain("This view no longer opens");
      expect(page.body).not.toContain("Olga private");
    });

    // Last: the flood's shared views are everyone's from here on.
    describe("bounds: a flood of shared views", () => {
      type Page = { data: { id: number; name: string; owner: { id: number } }[]; pagination: { total: number; length: number; page: number; per_page: number } };
      const listPage = async (who: Browser, query: string) => {
        const answer = await who.request(`/api/v1/views?${query}`);
        return { status: answer.status, body: JSON.parse(answer.body) as Page & { error: { code: string; message: string; fields?: Record<string, string[]> } } };
      };
      /** Every view `who` sees of the list, page by page. */
      const everyView = async (who: Browser) => {
        const first = await listPage(who, "resource=subscribers");
        const all = [...first.body.data];
        for (let p = 2; p <= first.body.pagination.length; p++) all.push(...(await listPage(who, `resource=subscribers&page=${p}`)).body.data);
        return { all, total: first.body.pagination.total };
      };
      const mineOf = async (who: Browser, owner: string) => (await everyView(who)).all.filter((v) => v.name.startsWith(owner));
      const saveAction = async (who: Browser, name: string) => {
        const action = builtServerActions().find((x) => x.name === "saveViewAction")!;
        return who.request(action.page, {
          method: "POST",
          headers: { "next-action": action.id, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component", origin: server.url },
          body: JSON.stringify([{ resource: "subscribers", name, shared: true, query: `q=${encodeURIComponent(name)}`, columns: null }]),
        });
      };
      // The page's bytes, and how often it names a flooded view (its HTML and its RSC payload alike):
      // the bytes vary by a kilobyte or two with what React streams in the first flush, the count does not.
      const weight = async () => {
        const page = await other.request("/subscribers?view=all");
        expect(page.status).toBe(200);
        return { bytes: Buffer.byteLength(page.body), floods: page.body.match(/Flood \d{3}/g)?.length ?? 0 };
      };
      const flooded = (i: number) => `Flood ${String(i).padStart(3, "0")}`;

      it(`refuses the shared views of a flood past ${VIEWS_PER_USER} (API and page action), and another user's list page stays bounded with a link to every view`, async () => {
        const before = await weight();
        const statuses: number[] = [];
        // Ten first: the menu's share of shared views is full from here.
        for (let i = 1; i <= 10; i++) statuses.push((await flood.request("/api/v1/views", json("POST", { resource: "subscribers", name: flooded(i), query: `q=flood${i}`, shared: true }))).status);
        const withTen = await weight();
        // One through the menu's own server action, then the rest of 300 through the API.
        const saved = await saveAction(flood, flooded(11));
        expect(saved.status, saved.body.slice(0, 300)).toBe(200);
        expect(saved.body).toContain(`View “${flooded(11)}” saved.`);
        let refusal = "";
        for (let i = 12; i <= 300; i++) {
          const answer = await flood.request("/api/v1/views", json("POST", { resource: "subscribers", name: flooded(i), query: `q=flood${i}`, shared: true }));
          statuses.push(answer.status);
          if (answer.status === 409) {
            const error = (JSON.parse(answer.body) as { error: { code: string; message: string } }).error;
            expect(error.code).toBe("too_many_views");
            refusal = error.message;
          }
        }
        expect(statuses.filter((s) => s === 201)).toHaveLength(VIEWS_PER_USER - 1);
        expect(statuses.filter((s) => s === 409)).toHaveLength(300 - VIEWS_PER_USER);
        expect(refusal).toMatch(new RegExp(`${VIEWS_PER_USER} saved views of the subscribers list.*delete one`));
        // The page's action is refused alike, with the same message.
        const past = await saveAction(flood, "Flood by action, past the limit");
        expect(past.status).toBe(200);
        expect(past.body).toContain(refusal);
        expect(await mineOf(other, "Flood")).toHaveLength(VIEWS_PER_USER);

        // Another user's list: ten shared views in the menu whatever the flood, then "All views…".
        const after = await weight();
        expect(withTen.floods).toBeGreaterThanOrEqual(10);
        expect(after.floods, "the flood's views the page names, with 10 shared and with 50").toBe(withTen.floods);
        expect(after.bytes - before.bytes, `${before.bytes} → ${withTen.bytes} (10 shared) → ${after.bytes} bytes`).toBeLessThan(40_000);
        const page = await other.request("/subscribers?view=all");
        const menu = page.body.slice(page.body.indexOf('aria-label="Saved views"'));
        expect(menu.includes(`<bdi>${flooded(10)}</bdi>`), flooded(10)).toBe(true);
        expect(menu.includes(`<bdi>${flooded(11)}</bdi>`), flooded(11)).toBe(false);
        expect(/<a href="\/views\?resource=subscribers&amp;back=[^"]*" class="[^"]*">All views…<\/a><\/nav>/.test(menu), "All views… ends the menu's links").toBe(true);
        // A flooded view the menu leaves out is still named when its link is opened.
        expect(/Views(<!-- -->)?: <bdi>Flood 040<\/bdi>/.test((await other.request("/subscribers?q=flood40")).body), "the menu names Flood 040").toBe(true);
      });

      it("lets one of twenty creations at once take the last place, never more", async () => {
        const mine = await mineOf(flood, "Flood");
        expect(mine).toHaveLength(VIEWS_PER_USER);
        expect((await flood.request(`/api/v1/views/${mine[0]!.id}`, { method: "DELETE", headers: { origin: server.url } })).status).toBe(204);
        const answers = await Promise.all(
          Array.from({ length: 20 }, (_, i) => flood.request("/api/v1/views", json("POST", { resource: "subscribers", name: `Flood race ${i}`, shared: true }))),
        );
        const statuses = answers.map((a) => a.status);
        expect(statuses.filter((s) => s === 201), statuses.join(" ")).toHaveLength(1);
        expect(statuses.filter((s) => s === 409)).toHaveLength(19);
        expect(await mineOf(flood, "Flood")).toHaveLength(VIEWS_PER_USER);
      });

      it("GET /api/v1/views pages like the other lists: 10 a page, total and length, bad pages as they answer them", async () => {
        const first = await listPage(other, "resource=subscribers");
        expect(first.status).toBe(200);
        const { total } = first.body.pagination;
        expect(total).toBeGreaterThan(VIEWS_PER_USER);
        expect(first.body.pagination).toEqual({ total, length: Math.ceil(total / 10), page: 1, per_page: 10 });
        expect(first.body.data).toHaveLength(10);
        const second = await listPage(other, "resource=subscribers&page=2");
        expect(second.body.pagination.page).toBe(2);
        expect(second.body.data).toHaveLength(10);
        expect(second.body.data.filter((v) => first.body.data.some((w) => w.id === v.id))).toEqual([]);
        const { all } = await everyView(other);
        expect(new Set(all.map((v) => v.id)).size).toBe(total);
        const beyond = await listPage(other, `resource=subscribers&page=${first.body.pagination.length + 1}`);
        expect(beyond.status).toBe(200);
        expect(beyond.body).toEqual({ data: [], pagination: { ...first.body.pagination, page: first.body.pagination.length + 1 } });
        // Every list's views when resource is left out, paged the same way.
        expect((await listPage(other, "")).body.pagination.total).toBeGreaterThanOrEqual(total);
        for (const bad of ["0", "-1", "abc", "1.5", "%201e3", "2&page=3", "99999999999"]) {
          const views = await listPage(other, `page=${bad}`);
          const branches = await other.request(`/api/v1/branches?page=${bad}`);
          expect(views.status, bad).toBe(branches.status);
          expect(views.status, bad).toBe(400);
          const like = (JSON.parse(branches.body) as { error: { code: string; message: string; fields?: Record<string, string[]> } }).error;
          expect({ code: views.body.error.code, fields: views.body.error.fields }, bad).toEqual({ code: like.code, fields: like.fields });
        }
      });

      it("the views page lists them 10 a page with the pager; a bad page is a 400 explaining it", async () => {
        const first = await other.request("/views?resource=subscribers");
        expect(first.status).toBe(200);
        expect(first.body).toContain('aria-label="Pagination"');
        expect((first.body.match(/<li class="space-y-2 rounded-lg/g) ?? []).length).toBe(10);
        const second = await other.request("/views?resource=subscribers&page=2");
        expect(second.status).toBe(200);
        expect(second.body).toMatch(/Showing 11–20 of/);
        const bad = await other.request("/views?resource=subscribers&page=abc");
        expect(bad.status).toBe(400);
        expect(bad.body).toContain("page must be a whole number");
      });
    });
  });
}
