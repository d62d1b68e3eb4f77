import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { countBranchSubscribersAction, createBranchAction, deleteBranchAction, updateBranchAction } from "@/app/(console)/branches/actions";
import * as branchesApi from "@/app/api/v1/branches/route";
import * as branchApi from "@/app/api/v1/branches/[id]/route";
import type { SessionUser } from "@/lib/auth/permissions";
import { branchFiltersSchema } from "@/lib/branches/filters";
import { createBranch, updateBranch } from "@/lib/branches/mutations";
import { listBranches } from "@/lib/branches/queries";
import type { Database } from "@/lib/db/client";
import { actAs, createUsers, testDatabase, testDbKinds } from "../helpers/db";
import { apiRequest, expectRefused, routeContext } from "../helpers/http";
import { branchScope } from "@/lib/auth/scope";
import { AppError } from "@/lib/errors";
import { waitingForLocks } from "../helpers/postgres";

const EVERY = branchScope({ role: "admin", branch_ids: null });

const list = (query: string) => listBranches(EVERY, branchFiltersSchema.parse(Object.fromEntries(new URLSearchParams(query))));
const names = async (query: string) => (await list(query)).data.map((b) => b.name);

for (const kind of testDbKinds()) {
  describe(`branches on ${kind}`, () => {
    let database: Database;
    let users: { admin: SessionUser; staff: SessionUser };

    beforeAll(async () => {
      database = await testDatabase(kind);
      users = await createUsers(database);
      // 25 branches, one a day from 2026-01-01 (UTC), updated 10 days later.
      await database.prisma.branch.createMany({
        data: Array.from({ length: 25 }, (_, i) => {
          const created = new Date(Date.UTC(2026, 0, 1 + i, 12));
          return { name: `Branch ${String(i + 1).padStart(2, "0")}${i % 5 === 0 ? " North" : ""}`, created_at: created, updated_at: new Date(created.getTime() + 10 * 86_400_000) };
        }),
      });
    });
    afterAll(async () => {
      await database?.close();
    });
    beforeEach(() => actAs(users.admin));

    describe("listBranches", () => {
      it("pages of 10, newest first, with total and length", async () => {
        const first = await list("");
        expect(first.pagination).toEqual({ total: 25, length: 3, page: 1, per_page: 10 });
        expect(first.data.map((b) => b.name).slice(0, 2)).toEqual(["Branch 25", "Branch 24"]);
        expect(first.data).toHaveLength(10);
        expect((await list("page=3")).data).toHaveLength(5);
      });

      it("answers an empty page past the end with the true totals", async () => {
        const past = await list("page=9");
        expect(past.data).toEqual([]);
        expect(past.pagination).toEqual({ total: 25, length: 3, page: 9, per_page: 10 });
      });

      it("never shows a row on two pages, whatever the sort", async () => {
        for (const sort of ["id", "-id", "name", "-name", "created_at", "-created_at", "updated_at", "-updated_at"]) {
          const seen = [...(await names(`sort=${sort}`)), ...(await names(`sort=${sort}&page=2`)), ...(await names(`sort=${sort}&page=3`))];
          expect(new Set(seen).size, sort).toBe(25);
        }
      });

      it("sorts by each column", async () => {
        expect((await names("sort=name")).slice(0, 2)).toEqual(["Branch 01 North", "Branch 02"]);
        expect((await names("sort=-name"))[0]).toBe("Branch 25");
        expect((await list("sort=id")).data[0]!.id).toBeLessThan((await list("sort=-id")).data[0]!.id);
        expect((await names("sort=created_at"))[0]).toBe("Branch 01 North");
        expect((await names("sort=-updated_at"))[0]).toBe("Branch 25");
      });

      it("filters by id, exactly", async () => {
        const target = (await list("sort=name")).data[1]!;
        expect(await names(`id=${target.id}`)).toEqual([target.name]);
        expect((await list("id=2147483647")).pagination.total).toBe(0);
      });

      it("filters by name, case-insensitively, anywhere", async () => {
        expect((await list("name=north")).pagination.total).toBe(5);
        expect((await list("name=NORTH")).pagination.total).toBe(5);
        expect(await names("name=ch 1&sort=name")).toEqual(expect.arrayContaining(["Branch 10", "Branch 11 North", "Branch 19"]));
        expect((await list("name=%25")).pagination.total).toBe(0); // % is literal, not a wildcard
      });

      it("filters by created and updated dates, both ends inclusive", async () => {
        expect((await list("created_from=2026-01-05&created_to=2026-01-07")).pagination.total).toBe(3);
        expect((await list("created_to=2026-01-01")).pagination.total).toBe(1);
        expect((await list("updated_from=2026-02-04")).pagination.total).toBe(1);
        expect((await list("updated_from=2026-01-11&updated_to=2026-01-12&name=north")).pagination.total).toBe(1);
      });
    });

    describe("admin mutations", () => {
      it("creates, refuses a name taken in another case, renames, deletes and detaches subscribers", async () => {
        const created = await createBranchAction({ name: "  Lisbon  " });
        expect(created).toMatchObject({ ok: true });
        const id = created.ok ? (created.data as { id: number }).id : 0;
        expect(await database.prisma.branch.findUnique({ where: { id } })).toMatchObject({ name: "Lisbon" });

        expect(await createBranchAction({ name: "LISBON" })).toEqual({
          ok: false,
          fieldErrors: { name: ["A branch with this name already exists."] },
          formError: "A branch with this name already exists.",
        });
        expect(await createBranchAction({ name: " " })).toMatchObject({ ok: false, fieldErrors: { name: ["Enter a name."] } });
        expect(await createBranchAction({ name: "x".repeat(101) })).toMatchObject({ ok: false, fieldErrors: { name: ["Use at most 100 characters."] } });

        expect(await updateBranchAction({ id, name: "Lisboa" })).toMatchObject({ ok: true });
        expect(await updateBranchAction({ id: 2_000_000, name: "Nowhere" })).toMatchObject({ ok: false, formError: "The branch was not found." });

        const subscriber = await database.prisma.subscriber.create({
          data: { first_name: "Ana", last_name: "Silva", email: "ana@example.com", mobile: "+351912345678", branch_id: id },
        });
        // The confirmation counts when it opens: exactly the subscribers that will lose the branch.
        expect(await countBranchSubscribersAction({ id })).toEqual({ ok: true, data: { subscribers: 1 } });
        const deleted = await deleteBranchAction({ id });
        expect(deleted).toMatchObject({ ok: true, message: "Branch “Lisboa” deleted. 1 subscriber shows no branch until it is restored from the trash." });
        // In the trash: the subscriber keeps its link (it shows no branch meanwhile: trash tests).
        expect(await database.prisma.subscriber.findUnique({ where: { id: subscriber.id } })).toMatchObject({ branch_id: id });
        expect(await database.prisma.branch.findUnique({ where: { id } })).toMatchObject({ deleted_at: expect.any(Date) });
        expect(await deleteBranchAction({ id })).toMatchObject({ ok: false, formError: "The branch was not found." });
      });
    });

    describe("refusals: staff and anonymous callers change nothing", () => {
      const callers = [
        ["staff", 403],
        ["anonymous", 401],
      ] as const;
      for (const [who, status] of callers) {
        it(`server actions refuse ${who} with ${status}`, async () => {
          const victim = await database.prisma.branch.create({ data: { name: `Keep me ${who}` } });
          const before = await database.prisma.branch.findMany({ orderBy: { id: "asc" } });
          actAs(who === "staff" ? users.staff : null);
          await expectRefused(createBranchAction({ name: `New by ${who}` }), status);
          await expectRefused(updateBranchAction({ id: victim.id, name: "Renamed" }), status);
          await expectRefused(deleteBranchAction({ id: victim.id }), status);
          expect(await database.prisma.branch.findMany({ orderBy: { id: "asc" } })).toEqual(before);
        });

        it(`the JSON API refuses ${who} with ${status}`, async () => {
          const victim = await database.prisma.branch.create({ data: { name: `Keep me too ${who}` } });
          const before = await database.prisma.branch.findMany({ orderBy: { id: "asc" } });
          actAs(who === "staff" ? users.staff : null);
          const ctx = routeContext({ id: String(victim.id) });
          const answers = [
            await branchesApi.POST(apiRequest("/api/v1/branches", { method: "POST", json: { name: "Sneaky" } }), undefined),
            await branchApi.PATCH(apiRequest(`/api/v1/branches/${victim.id}`, { method: "PATCH", json: { name: "Sneaky" } }), ctx),
            await branchApi.DELETE(apiRequest(`/api/v1/branches/${victim.id}`, { method: "DELETE" }), ctx),
          ];
          for (const answer of answers) {
            expect(answer.status).toBe(status);
            expect(await answer.json()).toMatchObject({ error: { code: status === 401 ? "unauthorized" : "forbidden" } });
          }
          expect(await database.prisma.branch.findMany({ orderBy: { id: "asc" } })).toEqual(before);
        });
      }

      it("anonymous callers cannot read the list either; staff can", async () => {
        actAs(null);
        expect((await branchesApi.GET(apiRequest("/api/v1/branches"), undefined)).status).toBe(401);
        actAs(users.staff);
        expect((await branchesApi.GET(apiRequest("/api/v1/branches"), undefined)).status).toBe(200);
      });
    });

    describe("JSON API", () => {
      it("lists with docs/API.md's shape and rejects bad filters with the field named", async () => {
        const ok = await branchesApi.GET(apiRequest("/api/v1/branches?name=north&sort=name"), undefined);
        const body = await ok.json();
        expect(body.pagination).toEqual({ total: 5, length: 1, page: 1, per_page: 10 });
        expect(body.data[0]).toEqual({ id: expect.any(Number), name: "Branch 01 North", created_at: "2026-01-01T12:00:00.000Z", updated_at: "2026-01-11T12:00:00.000Z" });

        for (const query of ["page=0", "page=abc", "sort=bogus", "created_from=yesterday"]) {
          const bad = await branchesApi.GET(apiRequest(`/api/v1/branches?${query}`), undefined);
          expect(bad.status, query).toBe(400);
          const error = (await bad.json()).error;
          expect(error.code).toBe("invalid_input");
          expect(Object.keys(error.fields)).toEqual([query.split("=")[0]]);
        }
      });

      it("creates (201), reads, renames, conflicts (409), deletes (204) and answers 404 for unknown ids", async () => {
        const created = await branchesApi.POST(apiRequest("/api/v1/branches", { method: "POST", json: { name: "Porto" } }), undefined);
        expect(created.status).toBe(201);
        const branch = await created.json();
        const ctx = routeContext({ id: String(branch.id) });
        expect((await branchApi.GET(apiRequest(`/api/v1/branches/${branch.id}`), ctx)).status).toBe(200);
        const conflict = await branchesApi.POST(apiRequest("/api/v1/branches", { method: "POST", json: { name: "PORTO" } }), undefined);
        expect(conflict.status).toBe(409);
        expect((await conflict.json()).error.fields).toEqual({ name: ["A branch with this name already exists."] });
        const patched = await branchApi.PATCH(apiRequest(`/api/v1/branches/${branch.id}`, { method: "PATCH", json: { name: "Oporto" } }), ctx);
        expect((await patched.json()).name).toBe("Oporto");
        expect((await branchApi.DELETE(apiRequest(`/api/v1/branches/${branch.id}`, { method: "DELETE" }), ctx)).status).toBe(204);
        expect((await branchApi.GET(apiRequest(`/api/v1/branches/${branch.id}`), ctx)).status).toBe(404);
        expect((await branchApi.GET(apiRequest("/api/v1/branches/abc"), routeContext({ id: "abc" }))).status).toBe(404);
      });

      it("refuses cross-site mutations (Origin check) and accepts same-site ones", async () => {
        const before = await database.prisma.branch.count();
        const evil = await branchesApi.POST(apiRequest("/api/v1/branches", { method: "POST", json: { name: "Evil" }, headers: { origin: "https://evil.example", host: "localhost" } }), undefined);
        expect(evil.status).toBe(403);
        expect((await evil.json()).error.code).toBe("cross_site_request");
        const victim = (await database.prisma.branch.findFirst({ select: { id: true } }))!;
        const evilDelete = await branchApi.DELETE(apiRequest(`/api/v1/branches/${victim.id}`, { method: "DELETE", headers: { origin: "null", host: "localhost" } }), routeContext({ id: String(victim.id) }));
        expect(evilDelete.status).toBe(403);
        expect(await database.prisma.branch.count()).toBe(before);
        const same = await branchesApi.POST(apiRequest("/api/v1/branches", { method: "POST", json: { name: "Same site" }, headers: { origin: "http://localhost", host: "localhost" } }), undefined);
        expect(same.status).toBe(201);
      });

      it("refuses bodies that are not JSON or not valid", async () => {
        const text = await branchesApi.POST(apiRequest("/api/v1/branches", { method: "POST", body: "name=x", headers: { "content-type": "application/x-www-form-urlencoded" } }), undefined);
        expect(text.status).toBe(415);
        const broken = await branchesApi.POST(apiRequest("/api/v1/branches", { method: "POST", body: "{", headers: { "content-type": "application/json" } }), undefined);
        expect(broken.status).toBe(400);
        const invalid = await branchesApi.POST(apiRequest("/api/v1/branches", { method: "POST", json: { name: 42 } }), undefined);
        expect(invalid.status).toBe(400);
        expect((await invalid.json()).error.fields.name).toBeDefined();
      });
    });

    // PGlite runs one statement at a time: no deletion can commit between a rename's read and its write.
    if (kind === "postgres") {
      it("does not rename a branch trashed between the rename's read and its write: 404, the trash keeps its name", async () => {
        const caller = { ...users.admin, scope: EVERY };
        const branch = await createBranch("Racing rename", caller);
        const deleting = new pg.Client({ connectionString: database.target.kind === "postgres" ? database.target.url : "" });
        await deleting.connect();
        try {
          await deleting.query("BEGIN");
          await deleting.query("UPDATE branches SET deleted_at = now() WHERE id = $1", [branch.id]);
          const renaming = updateBranch(branch.id, "Renamed in the trash", caller).then(() => null, (error: unknown) => error);
          // The rename has read the branch as live (the deletion is not committed) and waits for its row.
          const waiting = () => waitingForLocks(deleting);
          await expect.poll(waiting, { timeout: 10_000 }).toBe(1);
          await deleting.query("COMMIT");
          const refusal = await renaming;
          expect(AppError.is(refusal) ? refusal.status : refusal).toBe(404);
        } finally {
          await deleting.end();
        }
        expect(await database.prisma.branch.findUnique({ where: { id: branch.id }, select: { name: true } })).toEqual({ name: "Racing rename" });
        expect(await database.prisma.auditEvent.count({ where: { action: "branch.update", entity_id: String(branch.id) } })).toBe(0);
      });
    }
  });
}
