import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Database } from "@/lib/db/client";
import { query, sql } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import { subscriberListSql } from "@/lib/subscribers/queries";
import { subscriberFiltersSchema } from "@/lib/subscribers/filters";
import { testDatabase, testDbKinds } from "../helpers/db";

// `query()` reads on PostgreSQL without Prisma (lib/db/raw.ts): its rows must be exactly what
// Prisma's `$queryRaw` gives for the same statement, column type by column type, values sent
// included, and a type `$queryRaw` refuses is refused too. On PGlite `query()` is `$queryRaw`.

const EVERY_TYPE = sql`SELECT 1::int4 AS i4, 2::int8 AS i8, 3::int2 AS i2, 1.5::numeric AS num, 12345678901234567890.123::numeric AS big_num,
  1.5::float8 AS f8, 0.25::float4 AS f4, 'x'::text AS t, 'y'::varchar AS v, 'z'::char(2) AS ch, 'abc'::name AS nm, true AS b, false AS bf,
  '2027-03-03'::date AS d, '2026-11-22 09:14:05.123'::timestamp(3) AS ts, '2026-11-22 09:14:05.123+02'::timestamptz AS tstz, '09:14:05'::time AS tm,
  '{"a":1,"b":[true,null]}'::jsonb AS jb, '[1,"two"]'::json AS j, 'null'::jsonb AS jnull, ARRAY[1,2]::int4[] AS ai4, ARRAY['a','b,c',NULL]::text[] AS at,
  ARRAY[1,2]::int8[] AS ai8, ARRAY['2027-03-03'::date] AS ad, ARRAY['2026-11-22 09:14:05'::timestamp] AS ats, ARRAY[1.25]::numeric[] AS anum,
  ARRAY[true,false] AS ab, '8c0d1f2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f'::uuid AS u, '\\x0102ff'::bytea AS by, 'active'::"SubscriptionStatus" AS en,
  NULL::text AS nt, NULL::int4 AS ni, NULL::date AS nd, NULL::jsonb AS nj, 5::oid AS o, count(*) AS cnt`;

// Values sent as the console sends them: dates (against timestamps with and without a zone, and
// dates), numbers, text, booleans, lists, BigInt, null.
const SENT = sql`SELECT ${new Date("2026-03-01T00:00:00.000Z")}::timestamp(3) AS ts, ${new Date("2026-03-01T10:30:00.250Z")}::timestamptz AS tstz,
  ${new Date("2027-03-03T00:00:00Z")}::date AS d, ${42}::int AS n, ${"it's"}::text AS t, ${true}::boolean AS b, ${[1, 2, 3]}::int[] AS ids,
  ${["a", "b"]}::text[] AS names, ${BigInt("9007199254740993")}::int8 AS big, ${null}::text AS nothing,
  ${new Date("2026-03-01T00:00:00.000Z")}::timestamp(3) = '2026-03-01 00:00:00'::timestamp AS same_instant`;

for (const kind of testDbKinds()) {
  describe(`query() on ${kind}`, () => {
    let database: Database;

    beforeAll(async () => {
      database = await testDatabase(kind);
    });
    afterAll(async () => {
      await database?.close();
    });

    it("reads every column type as $queryRaw does", async () => {
      const ours = await query<Record<string, unknown>>(EVERY_TYPE);
      const prismas = await database.prisma.$queryRaw<Record<string, unknown>[]>(EVERY_TYPE);
      expect(ours).toEqual(prismas);
      // The shapes that matter, spelled out (toEqual compares Decimal and Date by value).
      const [row] = ours;
      expect(row!.i8).toBe(2n);
      expect(row!.cnt).toBe(1n);
      expect(row!.num).toBeInstanceOf(Prisma.Decimal);
      expect(String(row!.big_num)).toBe(String(prismas[0]!.big_num));
      expect(row!.d).toEqual(new Date("2027-03-03T00:00:00Z"));
      expect(row!.ts).toEqual(new Date("2026-11-22T09:14:05.123Z"));
      expect(row!.tstz).toEqual(new Date("2026-11-22T07:14:05.123Z"));
      expect(row!.jb).toEqual({ a: 1, b: [true, null] });
      expect(row!.by).toBeInstanceOf(Uint8Array);
      expect(row!.at).toEqual(["a", "b,c", null]);
    });

    it("sends values as $queryRaw does", async () => {
      expect(await query(SENT)).toEqual(await database.prisma.$queryRaw(SENT));
      const [row] = await query<{ same_instant: boolean; ids: number[] }>(SENT);
      expect(row!.same_instant).toBe(true);
      expect(row!.ids).toEqual([1, 2, 3]);
    });

    it("reads the hot statements (the session's user, a list page and its total) as $queryRaw does", async () => {
      await database.prisma.user.create({ data: { email: "raw@test.local", name: "Raw", role: "staff", password_hash: "scrypt$1$1$1$x$y", preferences: { subscriberTable: { density: "compact" } } } });
      // The setup mocks the session module (tests/setup/next-request.ts); its statement is the real one.
      const { sessionUserSql } = await vi.importActual<typeof import("@/lib/auth/session")>("@/lib/auth/session");
      const [user] = await database.prisma.user.findMany({ where: { email: "raw@test.local" }, select: { id: true } });
      expect(await query(sessionUserSql(user!.id))).toEqual(await database.prisma.$queryRaw(sessionUserSql(user!.id)));
      const { rows, count } = subscriberListSql(subscriberFiltersSchema.parse({ sort: "-created_at" }));
      expect(await query(rows)).toEqual(await database.prisma.$queryRaw(rows));
      expect(await query(count)).toEqual(await database.prisma.$queryRaw(count));
    });

    it("takes a plain string as a statement without values", async () => {
      expect(await query("SELECT 'a'::text AS a, 1::int8 AS n")).toEqual(await database.prisma.$queryRawUnsafe("SELECT 'a'::text AS a, 1::int8 AS n"));
    });

    it("refuses a column type $queryRaw refuses, and passes the database's errors on", async () => {
      await expect(query(sql`SELECT interval '1 day' AS iv`)).rejects.toThrow();
      await expect(database.prisma.$queryRaw(sql`SELECT interval '1 day' AS iv`)).rejects.toThrow();
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
