import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as viewsApi from "@/app/api/v1/views/route";
import * as viewApi from "@/app/api/v1/views/[id]/route";
import SubscribersPage from "@/app/(console)/subscribers/page";
import BranchesPage from "@/app/(console)/branches/page";
import BulkChangePage from "@/app/(console)/subscribers/bulk/page";
import * as usersApi from "@/app/api/v1/users/route";
import type { SessionUser } from "@/lib/auth/permissions";
import { branchScope } from "@/lib/auth/scope";
import type { Database } from "@/lib/db/client";
import { rawExportFilters } from "@/lib/export/filters";
import { rawParams } from "@/lib/list/params";
import { parseWith } from "@/lib/list/parse";
import { subscriberFiltersSchema } from "@/lib/subscribers/filters";
import { listSubscribers } from "@/lib/subscribers/queries";
import { requestBulkChange } from "@/lib/subscribers/bulk";
import { defaultViewHref, viewsState } from "@/lib/views/menu";
import { setDefaultView } from "@/lib/views/mutations";
import { auditSentence } from "@/lib/audit/describe";
import { actAs, createUsers, testDatabase, testDbKinds } from "../helpers/db";
import { apiRequest, routeContext } from "../helpers/http";
import { renderPage } from "../helpers/render-page";

// Saved views through the API and the list pages, on PGlite and PostgreSQL: the query checked by
// the list's own parser, who sees and changes which view, broken views, default views, and the
// rows a view's link opens.

type ViewBody = { id: number; name: string; resource: string; query: string; columns: string[] | null; shared: boolean; owner: { id: number; name: string }; problem: string | null };
type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string[]> } };

const post = (json: unknown) => viewsApi.POST(apiRequest("/api/v1/views", { method: "POST", json }), {});
const patch = (id: number, json: unknown) => viewApi.PATCH(apiRequest(`/api/v1/views/${id}`, { method: "PATCH", json }), routeContext({ id: String(id) }));
const remove = (id: number) => viewApi.DELETE(apiRequest(`/api/v1/views/${id}`, { method: "DELETE" }), routeContext({ id: String(id) }));
const list = async (resource = "subscribers") => ((await (await viewsApi.GET(apiRequest(`/api/v1/views?resource=${resource}`), {})).json()) as { data: ViewBody[] }).data;
const create = async (json: Record<string, unknown>) => {
  const response = await post({ resource: "subscribers", ...json });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as ViewBody;
};

/** What a page's redirect() throws: its target, or null when the page rendered. */
async function redirectOf(render: () => Promise<unknown>): Promise<string | null> {
  try {
    await render();
    return null;
  } catch (error) {
    const digest = String((error as { digest?: string }).digest ?? "");
    if (!digest.startsWith("NEXT_REDIRECT")) throw error;
    return digest.split(";")[2]!;
  }
}

for (const kind of testDbKinds()) {
  describe(`saved views on ${kind}`, () => {
    let database: Database;
    let users: { admin: SessionUser; staff: SessionUser };
    let other: SessionUser;

    beforeAll(async () => {
      database = await testDatabase(kind);
      users = await createUsers(database);
      other = (await database.prisma.user.create({
        data: { email: `other-${Date.now()}@test.local`, name: "Other Staff", role: "staff", password_hash: "x" },
        select: { id: true, email: true, name: true, role: true },
      })) as SessionUser;
      const statuses = ["pending", "active", "expired", "cancelled"] as const;
      await database.prisma.subscriber.createMany({
        data: Array.from({ length: 30 }, (_, i) => ({
          first_name: `First${i}`,
          last_name: i % 3 === 0 ? "Lisbon" : "Porto",
          email: `v${i}@example.com`,
          mobile: `+44740055${String(i).padStart(4, "0")}`,
          subscription_status: statuses[i % 4]!,
          is_mandatory: i % 2 === 0,
          created_at: new Date(Date.UTC(2026, 0, 1 + i)),
        })),
      });
    });
    afterAll(async () => {
      await database?.close();
    });
    beforeEach(() => actAs(users.staff));

    it("saves a view: 201, the list's query as stored, its columns, the owner", async () => {
      const view = await create({ name: "Pending mandatory", query: "?subscription_status=pending&is_mandatory=true&q=  lis  &sort=-created_at", columns: ["last_name", "email"] });
      expect(view).toMatchObject({
        name: "Pending mandatory",
        resource: "subscribers",
        query: "subscription_status=pending&is_mandatory=true&q=lis&sort=-created_at",
        columns: ["last_name", "email"],
        shared: false,
        owner: { id: users.staff.id, name: users.staff.name },
        problem: null,
      });
      expect(Object.keys(view).sort()).toEqual(["columns", "created_at", "id", "name", "owner", "problem", "query", "resource", "shared", "updated_at"]);
    });

    it("refuses a query its list would refuse, with a 400 naming the key or the value", async () => {
      const cases: [string, string, RegExp][] = [
        ["subscription_status=archived", "subscription_status", /must be one of: pending, active, expired, cancelled/],
        ["region=north", "region", /has no filter "region"/],
        ["page=2", "page", /does not keep the page/],
        ["columns=id", "columns", /columns/],
        ["view=all", "view", /view=all/],
        ["sort=favourite", "sort", /sort must be one of/],
        ["travel_date_from=2026-05-01&travel_date_to=2026-04-01", "travel_date_to", /on or after/],
        ["q=a&q=b", "q", /only once/],
        ["created_from=2026-02-30", "created_from", /does not exist/],
        // Each filter within the list's limit, but longer than a view keeps once escaped: a 400, not the column's error.
        [["q", "first_name", "last_name"].map((k) => `${k}=${"€".repeat(100)}`).join("&"), "query", /a view keeps at most 2000/],
      ];
      for (const [query, key, message] of cases) {
        const response = await post({ resource: "subscribers", name: `Bad ${key}`, query });
        expect(response.status, query).toBe(400);
        const body = (await response.json()) as ErrorBody;
        expect(body.error.fields?.query?.join(" "), query).toMatch(new RegExp(`${key}: `));
        expect(body.error.fields?.query?.join(" "), query).toMatch(message);
      }
      // A branch view by the branch list's parser: the subscriber list's filters are not its own.
      const branch = await post({ resource: "branches", name: "Wrong list", query: "subscription_status=active" });
      expect(branch.status).toBe(400);
      expect(((await branch.json()) as ErrorBody).error.message).toMatch(/branches list has no filter "subscription_status"/);
      expect((await list()).map((v) => v.name)).not.toContain("Bad region");
      // In the words of the request's Accept-Language, the field names as they are.
      const filters = "id, name, created_from, created_to, updated_from, updated_to, sort";
      const said = async (language: string, json: unknown) =>
        ((await (await viewsApi.POST(apiRequest("/api/v1/views", { method: "POST", json, headers: { "accept-language": language } }), {})).json()) as ErrorBody).error;
      const wrongList = { resource: "branches", name: "Wrong list", query: "subscription_status=active" };
      expect(await said("fr", wrongList)).toMatchObject({
        message: `La liste branches refuse cette requête : subscription_status : La liste branches n’a pas de filtre "subscription_status". Ses filtres sont : ${filters}.`,
        fields: { query: [`subscription_status : La liste branches n’a pas de filtre "subscription_status". Ses filtres sont : ${filters}.`] },
      });
      expect(await said("ar", wrongList)).toMatchObject({
        message: `ترفض القائمة branches هذا الاستعلام: \u2068subscription_status\u2069: لا تحتوي القائمة branches على عامل التصفية "subscription_status". عوامل تصفيتها هي: ${filters}.`,
      });
      expect(await said("fr", { resource: "branches", name: "Cols", columns: ["name"] })).toMatchObject({
        message: "columns : La liste branches n’a pas de choix de colonnes : columns doit valoir null.",
      });
    });

    it("refuses bad names, columns, resources and unknown fields", async () => {
      const bad: [unknown, string][] = [
        [{ resource: "subscribers", name: "" }, "name"],
        [{ resource: "subscribers", name: "x".repeat(61) }, "name"],
        [{ resource: "subscribers", name: "Cols", columns: ["id", "favourite"] }, "columns"],
        [{ resource: "subscribers", name: "Cols", columns: ["id", "id"] }, "columns"],
        [{ resource: "subscribers", name: "Cols", columns: [] }, "columns"],
        [{ resource: "branches", name: "Cols", columns: ["name"] }, "columns"],
        [{ resource: "audit", name: "Audit" }, "resource"],
        [{ resource: "subscribers", name: "Owner", owner_id: users.admin.id }, "owner_id"],
      ];
      for (const [json, field] of bad) {
        const response = await post(json);
        expect(response.status, JSON.stringify(json)).toBe(400);
        const body = (await response.json()) as ErrorBody;
        expect(JSON.stringify(body.error), JSON.stringify(json)).toContain(field);
      }
      expect((await create({ name: "x".repeat(60), query: "" })).name).toHaveLength(60);
    });

    it("keeps names unique per owner and list (409), not across lists or owners", async () => {
      await create({ name: "Lisbon", query: "q=lisbon" });
      const again = await post({ resource: "subscribers", name: "Lisbon", query: "q=porto" });
      expect(again.status).toBe(409);
      expect(((await again.json()) as ErrorBody).error.fields?.name).toBeDefined();
      expect((await post({ resource: "branches", name: "Lisbon", query: "name=lisbon" })).status).toBe(201);
      actAs(other);
      expect((await post({ resource: "subscribers", name: "Lisbon", query: "q=lisbon" })).status).toBe(201);
      // A rename onto a taken name is the same 409.
      actAs(users.staff);
      const mine = await create({ name: "To rename", query: "" });
      expect((await patch(mine.id, { name: "Lisbon" })).status).toBe(409);
    });

    it("lists the caller's own views and the shared ones, by name; someone else's private view is a 404 to everyone else", async () => {
      actAs(other);
      const hidden = await create({ name: "Other private", query: "is_mandatory=false" });
      const shared = await create({ name: "Aaa shared by other", query: "subscription_status=active", shared: true });
      for (const who of [users.staff, users.admin]) {
        actAs(who);
        const names = (await list()).map((v) => v.name);
        expect(names).not.toContain("Other private");
        expect(names).toContain("Aaa shared by other");
        expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
        const get = await viewApi.GET(apiRequest(`/api/v1/views/${hidden.id}`), routeContext({ id: String(hidden.id) }));
        expect(get.status).toBe(404);
        expect((await patch(hidden.id, { name: "Taken over" })).status).toBe(404);
        expect((await remove(hidden.id)).status).toBe(404);
      }
      // Staff open a shared view but do not change it; an administrator does.
      actAs(users.staff);
      expect((await patch(shared.id, { query: "" })).status).toBe(403);
      expect((await remove(shared.id)).status).toBe(403);
      actAs(users.admin);
      const changed = await patch(shared.id, { name: "Aaa shared, renamed by an admin" });
      expect(changed.status).toBe(200);
      expect(((await changed.json()) as ViewBody).owner.id).toBe(other.id);
      actAs(other);
      const still = await database.prisma.savedView.findUniqueOrThrow({ where: { id: hidden.id } });
      expect(still.name).toBe("Other private");
      // Its owner changes everything, and deletes it (204).
      const updated = await patch(hidden.id, { name: "Other, now shared", query: "subscription_status=expired&sort=id", columns: null, shared: true });
      expect(updated.status).toBe(200);
      expect(await updated.json()).toMatchObject({ name: "Other, now shared", query: "subscription_status=expired&sort=id", columns: null, shared: true });
      expect((await patch(hidden.id, { query: "subscription_status=gone" })).status).toBe(400);
      expect((await remove(hidden.id)).status).toBe(204);
      expect((await remove(hidden.id)).status).toBe(404);
    });

    it("shows a view its list no longer accepts as broken, with the reason, rather than dropping it", async () => {
      // As if the list's filters changed after the view was saved: a value and a key it no longer reads.
      await database.prisma.savedView.createMany({
        data: [
          { owner_id: users.staff.id, resource: "subscribers", name: "Old status", query: "subscription_status=archived" },
          { owner_id: users.staff.id, resource: "subscribers", name: "Old filter", query: "region=north" },
          { owner_id: users.staff.id, resource: "subscribers", name: "Old column", query: "", columns: ["id", "region"] },
        ],
      });
      const views = await list();
      expect(views.find((v) => v.name === "Old status")?.problem).toMatch(/subscription_status: subscription_status must be one of/);
      expect(views.find((v) => v.name === "Old filter")?.problem).toMatch(/region: The subscribers list has no filter "region"/);
      expect(views.find((v) => v.name === "Old column")?.problem).toMatch(/Not a column of the subscribers list: region/);
      // The API's `problem` follows its Accept-Language, as a failed job's `error` does.
      const french = ((await (await viewsApi.GET(apiRequest("/api/v1/views?resource=subscribers", { headers: { "accept-language": "fr" } }), {})).json()) as { data: ViewBody[] }).data;
      expect(french.find((v) => v.name === "Old status")?.problem).toBe("subscription_status : subscription_status doit être l’une de ces valeurs : pending, active, expired, cancelled.");
      const arabic = ((await (await viewsApi.GET(apiRequest("/api/v1/views?resource=subscribers", { headers: { "accept-language": "ar" } }), {})).json()) as { data: ViewBody[] }).data;
      expect(arabic.find((v) => v.name === "Old status")?.problem).toBe("\u2068subscription_status\u2069: يجب أن تكون subscription_status إحدى القيم: pending, active, expired, cancelled.");
      const state = await viewsState(users.staff, "subscribers", {});
      const broken = state.views.find((v) => v.name === "Old status")!;
      expect(broken).toMatchObject({ href: null, problem: expect.stringMatching(/must be one of/) });
      // A broken view is updated back into shape through the same parser.
      const fixed = await patch(broken.id, { query: "subscription_status=cancelled" });
      expect(((await fixed.json()) as ViewBody).problem).toBeNull();
      // A list that has no saved views any more (renamed or removed since): listed, broken, renamed or deleted, never a 500.
      const orphan = await database.prisma.savedView.create({ data: { owner_id: users.staff.id, resource: "regions", name: "Old list", query: "north=1" }, select: { id: true } });
      const every = ((await (await viewsApi.GET(apiRequest("/api/v1/views"), {})).json()) as { data: ViewBody[] }).data;
      expect(every.find((v) => v.id === orphan.id)?.problem).toMatch(/"regions" no longer has saved views/);
      expect((await patch(orphan.id, { query: "" })).status).toBe(400);
      expect((await patch(orphan.id, { name: "Old list, kept" })).status).toBe(200);
      expect((await remove(orphan.id)).status).toBe(204);
    });

    it("a view's link opens exactly its rows; the export and bulk changes from it take exactly its filters", async () => {
      const view = await create({ name: "Active Lisbon", query: "subscription_status=active&last_name=lisbon&sort=first_name", columns: ["first_name", "last_name"] });
      const state = await viewsState(users.staff, "subscribers", {});
      const href = state.views.find((v) => v.id === view.id)!.href!;
      expect(href).toBe("/subscribers?subscription_status=active&last_name=lisbon&sort=first_name&columns=first_name%2Clast_name");
      const address = rawParams(new URL(href, "http://localhost").searchParams);
      const viaLink = parseWith(subscriberFiltersSchema, address);
      const viaQuery = parseWith(subscriberFiltersSchema, new URLSearchParams(view.query));
      if (!viaLink.ok || !viaQuery.ok) throw new Error("the view's link does not parse");
      const rows = (await listSubscribers(branchScope(users.staff), viaLink.value)).data.map((r) => r.id);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows).toEqual((await listSubscribers(branchScope(users.staff), viaQuery.value)).data.map((r) => r.id));
      const statuses = await database.prisma.subscriber.findMany({ where: { id: { in: rows } }, select: { subscription_status: true, last_name: true } });
      expect(statuses.every((s) => s.subscription_status === "active" && s.last_name === "Lisbon")).toBe(true);
      // The export panel's filters on that address: the view's filters, no more, no less.
      expect(rawExportFilters(address)).toEqual({ subscription_status: "active", last_name: "lisbon" });
      // On that address the menu names the view, and the export panel gets its name.
      const here = await viewsState(users.staff, "subscribers", address);
      expect(here.current?.name).toBe("Active Lisbon");
      // The same filters in another order, with the page and default spelling, are the same view.
      const same = await viewsState(users.staff, "subscribers", { sort: "first_name", page: "2", last_name: " lisbon ", subscription_status: "active" });
      expect(same.current?.id).toBe(view.id);
      expect((await viewsState(users.staff, "subscribers", { subscription_status: "active" })).current?.id).not.toBe(view.id);
      // A bulk change's confirmation opened from the view's address takes its filters, and leads back to the view whole (sort and columns too).
      const html = await renderPage(BulkChangePage, `/subscribers/bulk?${new URL(href, "http://localhost").search.slice(1)}&scope=all&change=mandatory:true`);
      const back = /<a [^>]*href="(\/subscribers\?[^"]*)"[^>]*>Back to the list<\/a>/.exec(html)?.[1]?.replaceAll("&amp;", "&");
      expect(back).toBeDefined();
      const backParams = new URL(back!, "http://localhost").searchParams;
      expect(backParams.get("columns")).toBe("first_name,last_name");
      expect((await viewsState(users.staff, "subscribers", rawParams(backParams))).current?.id).toBe(view.id);
    });

    it("a bulk change from a view counts and changes exactly its rows; a shared view shows a scoped user their branches only", async () => {
      const view = await create({ name: "Shared pending Porto", query: "subscription_status=pending&last_name=porto", shared: true });
      const href = (await viewsState(users.staff, "subscribers", {})).views.find((v) => v.id === view.id)!.href!;
      const parsed = parseWith(subscriberFiltersSchema, rawParams(new URL(href, "http://localhost").searchParams));
      if (!parsed.ok) throw new Error("the view's link does not parse");
      const expected = (await listSubscribers(branchScope(users.staff), parsed.value)).data.map((r) => r.id).sort((x, y) => x - y);
      expect(expected.length).toBeGreaterThan(1);

      // The confirmation opened from the view's address counts its rows and names its filters, no more.
      const query = new URL(href, "http://localhost").search.slice(1);
      const html = await renderPage(BulkChangePage, `/subscribers/bulk?${query}&scope=all&change=mandatory:true`);
      expect(html.replaceAll("<!-- -->", "")).toContain(`${expected.length} subscribers will change`);
      expect(html.match(/<li class="rounded-full[^"]*">/g)?.length).toBe(2);

      // The change takes the view's filters: exactly its rows change, and no other.
      const before = await database.prisma.subscriber.findMany({ select: { id: true, is_mandatory: true }, orderBy: { id: "asc" } });
      const result = await requestBulkChange(branchScope(users.staff), users.staff, { filters: { subscription_status: "pending", last_name: "porto" } }, { is_mandatory: true });
      expect(result).toMatchObject({ kind: "done", count: expected.length });
      const after = await database.prisma.subscriber.findMany({ select: { id: true, is_mandatory: true }, orderBy: { id: "asc" } });
      for (const row of after) {
        const was = before.find((b) => b.id === row.id)!;
        expect(row.is_mandatory, `subscriber ${row.id}`).toBe(expected.includes(row.id) ? true : was.is_mandatory);
      }

      // A staff member scoped to one branch opens the same shared view: its rows in their branch only.
      const branch = await database.prisma.branch.create({ data: { name: `Views branch ${Date.now()}` }, select: { id: true } });
      const inBranch = expected.slice(0, 1);
      await database.prisma.subscriber.updateMany({ where: { id: { in: inBranch } }, data: { branch_id: branch.id } });
      actAs(users.admin);
      const made = await usersApi.POST(apiRequest("/api/v1/users", { method: "POST", json: { name: "Scoped Viewer", email: `scoped-viewer-${Date.now()}@test.local`, role: "staff", branch_ids: [branch.id] } }), {});
      expect(made.status, await made.clone().text()).toBe(201);
      const scoped = { ...((await made.json()) as { id: number; name: string; email: string }), role: "staff", branch_ids: [branch.id] } as SessionUser;
      actAs(scoped);
      const seen = (await list()).find((v) => v.id === view.id);
      expect(seen?.shared).toBe(true);
      const rows = (await listSubscribers(branchScope(scoped), parsed.value)).data.map((r) => r.id);
      expect(rows).toEqual(inBranch);
    });

    it("names the caller's own view before a shared one with the same filters", async () => {
      actAs(other);
      await create({ name: "Shared expired", query: "subscription_status=expired", shared: true });
      actAs(users.staff);
      const mine = await create({ name: "Zzz my expired", query: "subscription_status=expired&sort=-created_at" });
      expect((await viewsState(users.staff, "subscribers", { subscription_status: "expired" })).current?.id).toBe(mine.id);
      expect((await viewsState(users.admin, "subscribers", { subscription_status: "expired" })).current?.name).toBe("Shared expired");
    });

    it("opens the default view when the list is opened without a query; view=all and any query open the list as asked", async () => {
      const view = await create({ name: "My default", query: "is_mandatory=true&sort=last_name" });
      await setDefaultView(users.staff, "subscribers", view.id);
      const page = (searchParams: Record<string, string>) => redirectOf(() => SubscribersPage({ searchParams: Promise.resolve(searchParams) }));
      expect(await page({})).toBe("/subscribers?is_mandatory=true&sort=last_name");
      // (What the page asks; rendering it would start the list's query, left running past the test.)
      expect(await defaultViewHref(users.staff, "subscribers", { view: "all" })).toBeNull();
      expect(await defaultViewHref(users.staff, "subscribers", { q: "lisbon" })).toBeNull();
      expect((await viewsState(users.staff, "subscribers", {})).hasDefault).toBe(true);
      // Another user, and another list, are not affected: their bare list is the whole list, named so.
      expect(await defaultViewHref(users.admin, "subscribers", {})).toBeNull();
      expect((await viewsState(users.admin, "subscribers", {})).isAll).toBe(true);
      expect((await viewsState(users.admin, "subscribers", { page: "2" })).isAll).toBe(true);
      expect((await viewsState(users.admin, "subscribers", { subscription_status: "active" })).isAll).toBe(false);
      expect((await viewsState(users.admin, "subscribers", { sort: "id" })).isAll).toBe(false);
      expect(await redirectOf(() => BranchesPage({ searchParams: Promise.resolve({}) }))).toBeNull();
      // A default view that stops opening (broken), or goes, leaves the list whole.
      await database.prisma.savedView.update({ where: { id: view.id }, data: { query: "is_mandatory=perhaps" } });
      expect(await defaultViewHref(users.staff, "subscribers", {})).toBeNull();
      await remove(view.id);
      expect(await database.prisma.savedViewDefault.count({ where: { user_id: users.staff.id } })).toBe(0);
    });

    it("a shared view as a default stops being one when its owner makes it private", async () => {
      actAs(other);
      const view = await create({ name: "Shared default", query: "subscription_status=pending", shared: true });
      actAs(users.staff);
      await setDefaultView(users.staff, "subscribers", view.id);
      expect(await defaultViewHref(users.staff, "subscribers", {})).toBe("/subscribers?subscription_status=pending");
      actAs(other);
      expect((await patch(view.id, { shared: false })).status).toBe(200);
      expect(await defaultViewHref(users.staff, "subscribers", {})).toBeNull();
      // Nor can one pick someone else's private view as a default.
      await expect(setDefaultView(users.staff, "subscribers", view.id)).rejects.toMatchObject({ status: 404 });
    });

    it("audits saving, renaming, sharing, changing, making default and deleting a view, each with its actor", async () => {
      const view = await create({ name: "Audited", query: "subscription_status=active" });
      expect((await patch(view.id, { name: "Audited, renamed", shared: true })).status).toBe(200);
      expect((await patch(view.id, { query: "subscription_status=expired", columns: ["email"] })).status).toBe(200);
      await setDefaultView(users.staff, "subscribers", view.id);
      await setDefaultView(users.staff, "subscribers", null);
      actAs(users.admin);
      expect((await remove(view.id)).status).toBe(204);
      // A refused change writes nothing.
      actAs(other);
      expect((await patch(view.id, { name: "Gone" })).status).toBe(404);
      const events = await database.prisma.auditEvent.findMany({
        where: { OR: [{ entity: "view", entity_id: String(view.id) }, { action: "view.default", actor_id: users.staff.id, entity: null }] },
        select: { action: true, actor_id: true, before: true, after: true },
        orderBy: { id: "asc" },
      });
      const saved = { name: "Audited", resource: "subscribers", query: "subscription_status=active", columns: null, shared: false };
      const renamed = { ...saved, name: "Audited, renamed", shared: true };
      const changed = { ...renamed, query: "subscription_status=expired", columns: ["email"] };
      expect(events).toEqual([
        { action: "view.create", actor_id: users.staff.id, before: null, after: saved },
        { action: "view.update", actor_id: users.staff.id, before: saved, after: renamed },
        { action: "view.update", actor_id: users.staff.id, before: renamed, after: changed },
        { action: "view.default", actor_id: users.staff.id, before: null, after: { resource: "subscribers", view: "Audited, renamed" } },
        { action: "view.default", actor_id: users.staff.id, before: null, after: { resource: "subscribers", view: null } },
        { action: "view.delete", actor_id: users.admin.id, before: changed, after: null },
      ]);
      expect(auditSentence({ action: "view.update", entity: "view", entity_id: String(view.id), before: saved, after: renamed })).toBe("Changed name and shared of the view Audited, renamed");
    });

    describe("bounds: VIEWS_PER_USER per owner and list, ten shared views in the menu, a paged list", () => {
      let flooder: SessionUser;
      const before = process.env.VIEWS_PER_USER;
      beforeAll(async () => {
        flooder = (await database.prisma.user.create({
          data: { email: `flooder-${Date.now()}@test.local`, name: "Flo Flooder", role: "staff", password_hash: "x" },
          select: { id: true, email: true, name: true, role: true },
        })) as SessionUser;
      });
      afterAll(() => {
        if (before === undefined) delete process.env.VIEWS_PER_USER;
        else process.env.VIEWS_PER_USER = before;
      });

      it("refuses a view past VIEWS_PER_USER of one list with 409 too_many_views, naming the limit; another list is counted apart", async () => {
        process.env.VIEWS_PER_USER = "3";
        actAs(flooder);
        for (const i of [1, 2, 3]) await create({ name: `Kept ${i}`, shared: true });
        const refused = await post({ resource: "subscribers", name: "One too many", shared: true });
        expect(refused.status).toBe(409);
        const error = ((await refused.json()) as ErrorBody).error;
        expect(error.code).toBe("too_many_views");
        expect(error.message).toMatch(/3 saved views of the subscribers list.*delete one/);
        expect(await database.prisma.savedView.count({ where: { owner_id: flooder.id, resource: "subscribers" } })).toBe(3);
        // Another list of the same owner has room of its own.
        expect((await post({ resource: "branches", name: "Branches kept" })).status).toBe(201);
        // Deleting one frees its place.
        const [first] = await database.prisma.savedView.findMany({ where: { owner_id: flooder.id, resource: "subscribers" }, take: 1 });
        expect((await remove(first!.id)).status).toBe(204);
        expect((await post({ resource: "subscribers", name: "In its place", shared: true })).status).toBe(201);
      });

      it("lets one of many creations at once take the last place, never more", async () => {
        process.env.VIEWS_PER_USER = "4";
        actAs(flooder);
        expect(await database.prisma.savedView.count({ where: { owner_id: flooder.id, resource: "subscribers" } })).toBe(3);
        const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => post({ resource: "subscribers", name: `Race ${i}`, shared: true })));
        const statuses = answers.map((a) => a.status).sort();
        expect(statuses.filter((s) => s === 201)).toHaveLength(1);
        expect(statuses.filter((s) => s === 409)).toHaveLength(11);
        expect(await database.prisma.savedView.count({ where: { owner_id: flooder.id, resource: "subscribers" } })).toBe(4);
      });

      it("the menu reads the user's own views and ten shared ones of others at most; a shared view left out is still named when the address is its link", async () => {
        process.env.VIEWS_PER_USER = "40";
        actAs(flooder);
        for (let i = 0; i < 30; i++) await create({ name: `Aaa flood ${String(i).padStart(2, "0")}`, query: `q=flood${i}`, shared: true });
        const shared = await database.prisma.savedView.count({ where: { resource: "subscribers", shared: true, owner_id: { not: users.staff.id } } });
        expect(shared).toBeGreaterThan(30);
        const state = await viewsState(users.staff, "subscribers", {});
        const own = await database.prisma.savedView.count({ where: { resource: "subscribers", owner_id: users.staff.id } });
        expect(state.views.filter((v) => v.own)).toHaveLength(own);
        const others = state.views.filter((v) => !v.own);
        expect(others.map((v) => v.name)).toEqual(Array.from({ length: 10 }, (_, i) => `Aaa flood ${String(i).padStart(2, "0")}`));
        // "Aaa flood 25" is not in the menu, yet its link names it; so is a default view the menu leaves out.
        const left = await database.prisma.savedView.findFirstOrThrow({ where: { name: "Aaa flood 25" } });
        expect((await viewsState(users.staff, "subscribers", { q: "flood25" })).current?.id).toBe(left.id);
        await setDefaultView(users.admin, "subscribers", left.id);
        expect((await viewsState(users.admin, "subscribers", {})).hasDefault).toBe(true);
        await setDefaultView(users.admin, "subscribers", null);
        // Own views up to VIEWS_PER_USER (more only if the setting was lowered since they were saved).
        process.env.VIEWS_PER_USER = "2";
        expect((await viewsState(users.staff, "subscribers", {})).views.filter((v) => v.own)).toHaveLength(Math.min(own, 2));
      });

      it("GET /api/v1/views answers 10 a page with pagination; a page past the end is empty with the true total; bad pages are 400", async () => {
        actAs(users.staff);
        const page = async (query: string) => {
          const response = await viewsApi.GET(apiRequest(`/api/v1/views?${query}`), {});
          return { status: response.status, body: (await response.json()) as { data: ViewBody[]; pagination: { total: number; length: number; page: number; per_page: number } } & ErrorBody };
        };
        const total = await database.prisma.savedView.count({ where: { resource: "subscribers", OR: [{ owner_id: users.staff.id }, { shared: true }] } });
        expect(total).toBeGreaterThan(20);
        const first = await page("resource=subscribers");
        expect(first.status).toBe(200);
        expect(first.body.data).toHaveLength(10);
        expect(first.body.pagination).toEqual({ total, length: Math.ceil(total / 10), page: 1, per_page: 10 });
        const second = await page("resource=subscribers&page=2");
        expect(second.body.pagination.page).toBe(2);
        expect(second.body.data).toHaveLength(10);
        expect(second.body.data.map((v) => v.id).filter((id) => first.body.data.some((v) => v.id === id))).toEqual([]);
        const past = await page(`resource=subscribers&page=${Math.ceil(total / 10) + 1}`);
        expect(past.status).toBe(200);
        expect(past.body).toMatchObject({ data: [], pagination: { total, length: Math.ceil(total / 10) } });
        for (const bad of ["0", "-1", "abc", "1.5", "2&page=3"]) {
          const answer = await page(`resource=subscribers&page=${bad}`);
          expect(answer.status, bad).toBe(400);
          expect(answer.body.error.fields).toHaveProperty("page");
        }
        // Every page together: each visible view once.
        const seen: number[] = [];
        for (let p = 1; p <= Math.ceil(total / 10); p++) seen.push(...(await page(`resource=subscribers&page=${p}`)).body.data.map((v) => v.id));
        expect(new Set(seen).size).toBe(total);
      });
    });

    it("the list parsers read view=all and refuse any other value", () => {
      expect(parseWith(subscriberFiltersSchema, { view: "all" }).ok).toBe(true);
      const refused = parseWith(subscriberFiltersSchema, { view: "mine" });
      expect(refused.ok ? "" : refused.message).toMatch(/view must be one of: all/);
    });
  });
}
