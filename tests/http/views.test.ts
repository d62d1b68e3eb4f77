import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, startConsole, type ConsoleServer } from "../helpers/console-server";
import { testDbKinds } from "../helpers/db";
import { seedSubscribers } from "../helpers/export-data";

// Saved views against the production build over real HTTP, with real sessions: the default view
// a bare list opens with, `view=all`, the Views menu naming the view the address is, the page's
// rows equal to the API's for the view's query, and the API's answers to other users.

const PASSWORD = "views-http-password-1";
const STAFF = { email: "staff@views.test", password: PASSWORD, role: "staff" as const, name: "Sam Staff" };
const OTHER = { email: "other@views.test", password: PASSWORD, role: "staff" as const, name: "Olga Other" };
const ADMIN = { email: "admin@views.test", password: PASSWORD, role: "admin" as const, name: "Ada Admin" };

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
};

const rowIds = (html: string) => [...new Set([...html.matchAll(/href="\/subscribers\/(\d+)"/g)].map((m) => Number(m[1])))];

for (const kind of testDbKinds()) {
  describe(`saved views over HTTP on ${kind}`, () => {
    let server: ConsoleServer;
    let staff: Browser;
    let other: Browser;
    let admin: Browser;
    const json = (method: string, body: unknown) => ({ method, headers: { "content-type": "application/json", origin: server.url }, body: JSON.stringify(body) });
    const viewsOf = async (who: Browser) => (JSON.parse((await who.request("/api/v1/views?resource=subscribers")).body) as { data: { id: number; name: string; problem: string | null }[] }).data;

    beforeAll(async () => {
      server = await startConsole(kind, { users: [STAFF, OTHER, ADMIN], seed });
      staff = new Browser(server.url, "127.0.0.51");
      other = new Browser(server.url, "127.0.0.52");
      admin = new Browser(server.url, "127.0.0.53");
      for (const [who, user] of [[staff, STAFF], [other, OTHER], [admin, ADMIN]] as const) expect((await who.signIn(user.email, PASSWORD)).status).toBe(200);
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
      expect((await other.request("/subscribers")).status).toBe(200);
    });

    it("the view's address: the menu names it, the export panel names it, and its rows are the API's for its query", async () => {
      const page = await staff.request("/subscribers?subscription_status=pending&is_mandatory=true");
      expect(page.status).toBe(200);
      expect(page.body).toMatch(/Views<!-- -->: <bdi>Pending mandatory<\/bdi>/);
      expect(page.body).toContain("The view “<bdi");
      const api = JSON.parse((await staff.request("/api/v1/subscribers?subscription_status=pending&is_mandatory=true")).body) as { data: { id: number }[] };
      expect(api.data.length).toBeGreaterThan(0);
      expect(rowIds(page.body)).toEqual(api.data.map((s) => s.id));
      // The shared view of another user: a link in the menu, and the same rows as its query.
      expect(page.body).toContain('href="/subscribers?subscription_status=active&amp;sort=first_name"');
      const shared = await other.request("/subscribers?sort=first_name&subscription_status=active");
      expect(shared.body).toMatch(/Views<!-- -->: <bdi>Olga shared active<\/bdi>/);
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

    it("the views page lists the list's views with their state", async () => {
      const page = await staff.request(`/views?resource=subscribers&back=${encodeURIComponent("/subscribers?subscription_status=active")}`);
      expect(page.status).toBe(200);
      expect(page.body).toContain("Subscriber views");
      expect(page.body).toContain("Pending mandatory");
      expect(page.body).toContain("Your default");
      expect(page.body).toContain("This view no longer opens");
      expect(page.body).not.toContain("Olga private");
    });
  });
}
