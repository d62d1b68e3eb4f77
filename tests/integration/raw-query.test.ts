import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Database } from "@/lib/db/client";
import { query, sql } from "@/lib/db/sql";
import { subscriberListSql } from "@/lib/subscribers/queries";
import { subscriberFiltersSchema } from "@/lib/subscribers/filters";
import { testDatabase, testDbKinds } from "../helpers/db";
import { branchScope } from "@/lib/auth/scope";

const EVERY = branchScope({ role: "admin", branch_ids: null });

// `query()` runs on the driver Prisma's adapter uses (pg's pool, PGlite), its rows as that driver
// gives them: what the console's statements read must come out the same on both.

for (const kind of testDbKinds()) {
  describe(`query() on ${kind}`, () => {
    let database: Database;

    beforeAll(async () => {
      database = await testDatabase(kind);
    });
    afterAll(async () => {
      await database?.close();
    });

    it("reads the session's user, a list page and its total as the app uses them", async () => {
      const user = await database.prisma.user.create({
        data: { email: "raw@test.local", name: "Raw", role: "staff", password_hash: "scrypt$1$1$1$x$y", preferences: { subscriberTable: { density: "compact" } } },
      });
      // The setup mocks the session module (tests/setup/next-request.ts); its statement is the real one.
      const { sessionUserSql } = await vi.importActual<typeof import("@/lib/auth/session")>("@/lib/auth/session");
      expect(await query(sessionUserSql(user.id))).toEqual([
        { id: user.id, name: "Raw", email: "raw@test.local", role: "staff", branch_ids: null, branch_names: null, active: true, session_version: 0, preferences: { subscriberTable: { density: "compact" } }, locale: null, two_factor: false },
      ]);
      // A scoped staff member's branch names come with it, by name (the header's), ids by id.
      const [north, east] = await database.prisma.branch.createManyAndReturn({ data: [{ name: "Raw North" }, { name: "raw East" }], select: { id: true } });
      await database.prisma.user.update({ where: { id: user.id }, data: { branch_scoped: true, branches: { create: [{ branch_id: north!.id }, { branch_id: east!.id }] } } });
      expect(await query(sessionUserSql(user.id))).toMatchObject([{ branch_ids: [north!.id, east!.id], branch_names: ["raw East", "Raw North"] }]);
      await database.prisma.user.update({ where: { id: user.id }, data: { branch_scoped: false, branches: { deleteMany: {} } } });

      const branch = await database.prisma.branch.create({ data: { name: "Raw branch" } });
      const country = await database.prisma.country.create({ data: { code: "ZZ", name: "Rawland" } });
      const created = await database.prisma.subscriber.create({
        data: { first_name: "Ada", last_name: "Raw", email: "ada@raw.test", mobile: "+15550000001", branch_id: branch.id, country_id: country.id, travel_date: new Date("2027-03-03T00:00:00Z") },
      });
      const { rows, count } = subscriberListSql(EVERY, subscriberFiltersSchema.parse({ last_name: "Raw" }));
      const [row] = await query<Record<string, unknown>>(rows);
      expect(row).toMatchObject({ id: created.id, first_name: "Ada", branch_name: "Raw branch", travel_date: new Date("2027-03-03T00:00:00Z"), created_at: created.created_at, is_mandatory: false });
      expect(await query(count)).toEqual([{ total: 1 }]);
    });

    it("reads a day as midnight UTC whatever the process's time zone", async () => {
      const zone = process.env.TZ;
      process.env.TZ = "America/New_York";
      try {
        expect(await query(sql`SELECT '2027-03-03'::date AS d, ${new Date("2027-03-03T10:00:00Z")}::timestamptz AS at`)).toEqual([
          { d: new Date("2027-03-03T00:00:00Z"), at: new Date("2027-03-03T10:00:00Z") },
        ]);
      } finally {
        if (zone === undefined) delete process.env.TZ;
        else process.env.TZ = zone;
      }
    });

    it("sends values bound, takes a plain string as a statement without values, and passes the database's errors on", async () => {
      expect(await query(sql`SELECT ${"it's"}::text AS t, ${[1, 2, 3]}::int[] AS ids, ${true}::boolean AS b, ${null}::text AS n`)).toEqual([
        { t: "it's", ids: [1, 2, 3], b: true, n: null },
      ]);
      expect(await query("SELECT 'a'::text AS a, 1::int AS n")).toEqual([{ a: "a", n: 1 }]);
      await expect(query(sql`SELECT 1/0 AS x`)).rejects.toThrow(/division by zero/);
    });
  });
}

// PGlite runs in the process and has no connection a server could end: PostgreSQL only.
describe.runIf(testDbKinds().includes("postgres"))("the app's pool on PostgreSQL", () => {
  let database: Database;

  beforeAll(async () => {
    database = await testDatabase("postgres");
  });
  afterAll(async () => {
    await database?.close();
  });

  it("loses an idle connection that the server ends without an unhandled error, and reads on", async () => {
    // A database whose Prisma never connects (raw reads alone do not make it: the listener
    // Prisma's adapter adds to the pool would come only then): the pool's own must be there.
    const url = (database.target as { url: string }).url;
    const fresh = await openDatabase({ kind: "postgres", url });
    try {
      const [row] = await fresh.query<{ pid: number }>(sql`SELECT pg_backend_pid() AS pid`);
      const other = new pg.Client({ connectionString: url });
      await other.connect();
      await other.query("SELECT pg_terminate_backend($1)", [row!.pid]);
      await other.end();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await fresh.query(sql`SELECT 1::int AS one`)).toEqual([{ one: 1 }]);
    } finally {
      await fresh.close();
    }
  });
});
