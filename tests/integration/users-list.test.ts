import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as usersRoute } from "@/app/api/v1/users/route";
import type { SessionUser } from "@/lib/auth/permissions";
import type { Database } from "@/lib/db/client";
import { USER_SORT_COLUMNS, userFiltersSchema } from "@/lib/users/filters";
import { listUsers, type UserRow } from "@/lib/users/queries";
import { actAs, createUsers, testDatabase, testDbKinds } from "../helpers/db";
import { apiRequest } from "../helpers/http";

// The /users list (docs/API.md: filters name, email, role, active; sort on every column; pages of
// 10): the query the page and GET /api/v1/users share, and the route's answers to good and bad
// queries.

const NAMES = [
  "Ada Lovelace", "alan Turing", "Barbara Liskov", "Brian Kernighan", "Claude Shannon", "dennis Ritchie", "Edsger Dijkstra",
  "Frances Allen", "Grace Hopper", "Hedy Lamarr", "Ivan Sutherland", "John Backus", "Ken Thompson", "Leslie Lamport",
  "Margaret Hamilton", "Niklaus Wirth", "Ole-Johan Dahl", "Peter Naur", "Radia Perlman", "Shafi Goldwasser", "Tony Hoare",
  "Unix Pioneer", "Whitfield Diffie",
];
const HOUR = 3_600_000;

const list = (query: string) => listUsers(userFiltersSchema.parse(Object.fromEntries(new URLSearchParams(query))));
const names = async (query: string) => (await list(query)).data.map((u) => u.name);
/** Every page of a query, in order. */
async function allPages(query: string): Promise<UserRow[]> {
  const first = await list(query);
  const rest = [];
  for (let page = 2; page <= first.pagination.length; page++) rest.push(...(await list(`${query}&page=${page}`)).data);
  return [...first.data, ...rest];
}

for (const kind of testDbKinds()) {
  describe(`the users list on ${kind}`, () => {
    let database: Database;
    let users: { admin: SessionUser; staff: SessionUser };
    let everyone: UserRow[];

    beforeAll(async () => {
      database = await testDatabase(kind);
      users = await createUsers(database);
      // 23 more: every fifth an administrator, every fourth (from the fourth) deactivated, one a
      // day from 2026-01-01, two in three with a last sign-in (the later ones signed in earlier).
      await database.prisma.user.createMany({
        data: NAMES.map((name, i) => ({
          name,
          email: `${name.split(" ")[0]!.toLowerCase()}@${i % 2 ? "people.test" : "corp.example"}`,
          role: i % 5 === 0 ? ("admin" as const) : ("staff" as const),
          active: i % 4 !== 3,
          password_hash: "scrypt$1$1$1$x$y",
          created_at: new Date(Date.UTC(2026, 0, 1 + i, 12)),
          last_sign_in_at: i % 3 === 0 ? null : new Date(Date.UTC(2026, 1, 1) + (22 - i) * HOUR),
        })),
      });
      everyone = await allPages("");
    });
    afterAll(async () => database?.close());
    beforeEach(() => actAs(users.admin));

    describe("listUsers", () => {
      it("pages of 10 by name, with total and length", async () => {
        const first = await list("");
        expect(first.pagination).toEqual({ total: 25, length: 3, page: 1, per_page: 10 });
        expect(first.data).toHaveLength(10);
        // Case does not decide the order: "alan Turing" right after "Ada Lovelace".
        expect(first.data.slice(0, 3).map((u) => u.name)).toEqual(["Ada Lovelace", "alan Turing", "Barbara Liskov"]);
        expect((await list("page=3")).data).toHaveLength(5);
        expect(everyone).toHaveLength(25);
      });

      it("answers an empty page past the end with the true totals", async () => {
        const past = await list("page=4");
        expect(past.data).toEqual([]);
        expect(past.pagination).toEqual({ total: 25, length: 3, page: 4, per_page: 10 });
        const filteredPast = await list("role=admin&page=2");
        expect(filteredPast.data).toEqual([]);
        expect(filteredPast.pagination).toEqual({ total: 6, length: 1, page: 2, per_page: 10 });
      });

      it("sorts by every column both ways, each row on exactly one page", async () => {
        for (const column of USER_SORT_COLUMNS) {
          const up = await allPages(`sort=${column}`);
          const down = await allPages(`sort=-${column}`);
          expect(new Set(up.map((u) => u.id)).size, column).toBe(25);
          // Ties are broken by id in the same direction: descending is ascending read backwards.
          expect(down.map((u) => u.id), column).toEqual(up.map((u) => u.id).reverse());
        }
      });

      it("sorts each column by its meaning", async () => {
        const ids = (rows: UserRow[]) => rows.map((u) => u.id);
        expect(ids(await allPages("sort=id"))).toEqual(ids(everyone).sort((a, b) => a - b));
        expect((await names("sort=-name"))[0]).toBe("Whitfield Diffie");
        expect((await list("sort=email")).data.slice(0, 2).map((u) => u.email)).toEqual(["ada@corp.example", users.admin.email]);
        expect((await list("sort=-email")).data[0]!.email).toBe("whitfield@corp.example");
        // Roles in their declared order (admin, then staff); inactive before active.
        expect((await allPages("sort=role")).map((u) => u.role)).toEqual([...Array(6).fill("admin"), ...Array(19).fill("staff")]);
        expect((await allPages("sort=active")).map((u) => u.active)).toEqual([...Array(5).fill(false), ...Array(20).fill(true)]);
        expect((await names("sort=created_at")).slice(0, 2)).toEqual(["Ada Lovelace", "alan Turing"]);
        expect((await names("sort=-created_at")).slice(2, 4)).toEqual(["Whitfield Diffie", "Unix Pioneer"]);
        // The earliest sign-in first; those who never signed in last (and first, descending).
        const bySignIn = await allPages("sort=last_sign_in_at");
        expect(bySignIn[0]!.name).toBe("Whitfield Diffie");
        const signedIn = bySignIn.filter((u) => u.last_sign_in_at);
        expect(bySignIn.slice(0, signedIn.length)).toEqual(signedIn);
        expect(signedIn.map((u) => u.last_sign_in_at!.getTime())).toEqual(signedIn.map((u) => u.last_sign_in_at!.getTime()).sort((a, b) => a - b));
        expect((await list("sort=-last_sign_in_at")).data[0]!.last_sign_in_at).toBeNull();
      });

      it("filters by name and email, case-insensitively, anywhere in the value", async () => {
        const matching = (pick: (u: UserRow) => string, q: string) =>
          everyone.filter((u) => pick(u).toLowerCase().includes(q.toLowerCase())).map((u) => u.id).sort((a, b) => a - b);
        for (const q of ["an", "AN", "ada", "son", "Ole-J", "test"]) {
          expect((await allPages(`name=${encodeURIComponent(q)}&sort=id`)).map((u) => u.id), `name=${q}`).toEqual(matching((u) => u.name, q));
        }
        for (const q of ["people.test", "CORP", "ada@", "test.local"]) {
          expect((await allPages(`email=${encodeURIComponent(q)}&sort=id`)).map((u) => u.id), `email=${q}`).toEqual(matching((u) => u.email, q));
        }
        expect((await list("name=%25")).pagination.total).toBe(0); // % and _ are literal, not wildcards
        expect((await list("name=_")).pagination.total).toBe(0);
        expect((await list("name=Ada%20Lovelace")).data.map((u) => u.email)).toEqual(["ada@corp.example"]);
      });

      it("filters by role and active, alone and together", async () => {
        expect((await list("role=admin")).pagination.total).toBe(6);
        expect((await list("role=staff")).pagination.total).toBe(19);
        expect((await list("active=false")).pagination.total).toBe(5);
        expect((await list("active=true")).pagination.total).toBe(20);
        // Index 15 (Niklaus Wirth) is the one inactive administrator.
        expect(await names("role=admin&active=false")).toEqual(["Niklaus Wirth"]);
        expect(await names("role=staff&active=false&email=people.test")).toEqual(["Brian Kernighan", "Frances Allen", "John Backus", "Shafi Goldwasser"]);
        const staffPage2 = await list("role=staff&page=2");
        expect(staffPage2.data).toHaveLength(9);
        expect(staffPage2.data.every((u) => u.role === "staff")).toBe(true);
      });
    });

    describe("GET /api/v1/users", () => {
      const get = async (query: string) => {
        const response = await usersRoute(apiRequest(`/api/v1/users${query ? `?${query}` : ""}`), undefined);
        return { status: response.status, body: (await response.json()) as { data: Record<string, unknown>[]; pagination: unknown; error?: { code: string; fields?: Record<string, string[]> } } };
      };

      it("answers a page of users with the filters, sort and page applied, never a password", async () => {
        const { status, body } = await get("role=staff&active=true&sort=-email&page=2");
        expect(status).toBe(200);
        const expected = everyone.filter((u) => u.role === "staff" && u.active);
        expect(body.pagination).toEqual({ total: expected.length, length: Math.ceil(expected.length / 10), page: 2, per_page: 10 });
        expect(body.data).toHaveLength(expected.length - 10);
        expect(Object.keys(body.data[0]!).sort()).toEqual(["active", "branch_ids", "created_at", "email", "id", "last_sign_in_at", "locale", "name", "role", "two_factor"]);
        expect(JSON.stringify(body)).not.toMatch(/password|scrypt/);
        const emails = body.data.map((u) => u.email as string);
        expect(emails).toEqual((await allPages("role=staff&active=true&sort=-email")).slice(10).map((u) => u.email));
        const { body: byName } = await get("name=LOVELACE&email=corp");
        expect(byName.data).toEqual([
          {
            id: expect.any(Number),
            name: "Ada Lovelace",
            email: "ada@corp.example",
            role: "admin",
            branch_ids: null,
            active: true,
            two_factor: false,
            created_at: "2026-01-01T12:00:00.000Z",
            last_sign_in_at: null,
            locale: null,
          },
        ]);
      });

      it("answers a page past the end with no rows and the true totals", async () => {
        const { status, body } = await get("page=7&active=false");
        expect(status).toBe(200);
        expect(body).toEqual({ data: [], pagination: { total: 5, length: 1, page: 7, per_page: 10 } });
      });

      it("refuses a bad role, sort, active or page with a 400 naming it", async () => {
        for (const [query, field] of [
          ["role=owner", "role"],
          ["role=Admin", "role"],
          ["role=admin&role=staff", "role"],
          ["active=yes", "active"],
          ["active=1", "active"],
          ["sort=password_hash", "sort"],
          ["sort=-nope", "sort"],
          ["sort=--name", "sort"],
          ["sort=name,email", "sort"],
          ["page=0", "page"],
          ["page=abc", "page"],
          ["page=-1", "page"],
          [`name=${"x".repeat(101)}`, "name"],
        ] as const) {
          const { status, body } = await get(query);
          expect(status, query).toBe(400);
          expect(body.error?.code, query).toBe("invalid_input");
          expect(Object.keys(body.error?.fields ?? {}), query).toEqual([field]);
        }
      });

      it("is for administrators only", async () => {
        actAs(users.staff);
        expect((await get("")).status).toBe(403);
        actAs(null);
        expect((await get("")).status).toBe(401);
      });
    });
  });
}
