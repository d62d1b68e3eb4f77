import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET } from "@/app/api/v1/subscribers/route";
import type { Database } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { setListLimitsForTests } from "@/lib/list/depth";
import { subscriberFiltersSchema, SUBSCRIBER_SORT_COLUMNS } from "@/lib/subscribers/filters";
import { listSubscribers } from "@/lib/subscribers/queries";
import { actAs, createUsers, testDatabase, testDbKinds } from "../helpers/db";
import { seedSubscribers } from "../helpers/export-data";
import { apiRequest } from "../helpers/http";
import { branchScope } from "@/lib/auth/scope";

const EVERY = branchScope({ role: "admin", branch_ids: null });

// Issue 19: what a list request costs must not grow with its page number, and a contains filter
// that the trigram index cannot serve (one or two letters, emoji) keeps its exact total but reads
// the table once. Measured as the rows PostgreSQL reads from `subscribers` (EXPLAIN ANALYZE of
// every statement the request runs), on PGlite and on PostgreSQL.

const N = 1200;
const SORTS = SUBSCRIBER_SORT_COLUMNS.flatMap((c) => [c, `-${c}`]);
const EMOJI = "😀".repeat(60);

type PlanNode = { "Relation Name"?: string; "Actual Rows"?: number; "Actual Loops"?: number; "Rows Removed by Filter"?: number; Plans?: PlanNode[] };

function readsOf(node: PlanNode): number {
  const own = node["Relation Name"] === "subscribers" ? ((node["Actual Rows"] ?? 0) + (node["Rows Removed by Filter"] ?? 0)) * (node["Actual Loops"] ?? 1) : 0;
  return own + (node.Plans ?? []).reduce((n, child) => n + readsOf(child), 0);
}

const parse = (query: string) => subscriberFiltersSchema.parse(Object.fromEntries(new URLSearchParams(query)));

for (const kind of testDbKinds()) {
  describe(`list cost (${kind})`, () => {
    let database: Database;

    beforeAll(async () => {
      database = await testDatabase(kind);
      await seedSubscribers((text) => database.prisma.$executeRawUnsafe(text), N);
      // Rare values: two first names with an emoji, one with a Q.
      await database.prisma.$executeRawUnsafe(`UPDATE subscribers SET first_name = 'Zoë ' || repeat('😀', 60) WHERE id IN (100, 900)`);
      await database.prisma.$executeRawUnsafe(`UPDATE subscribers SET first_name = 'Qin' WHERE id = 500`);
      await database.prisma.$executeRawUnsafe(`ANALYZE subscribers`);
      actAs((await createUsers(database)).staff);
    });
    afterEach(() => setListLimitsForTests());
    afterAll(async () => {
      actAs(null);
      await database?.close();
    });

    /** The rows of `subscribers` that the statements of one list request read. */
    async function rowsRead(query: string): Promise<{ reads: number; result: Awaited<ReturnType<typeof listSubscribers>> }> {
      const statements: Prisma.Sql[] = [];
      const run = database.query;
      const spy = vi.spyOn(database, "query").mockImplementation(((sql: Prisma.Sql) => {
        statements.push(sql);
        return run(sql);
      }) as never);
      let result;
      try {
        result = await listSubscribers(EVERY, parse(query));
      } finally {
        spy.mockRestore();
      }
      expect(statements.length).toBeGreaterThan(0); // the list's statements are the ones measured
      let reads = 0;
      for (const sql of statements) {
        const [row] = await database.prisma.$queryRawUnsafe<{ "QUERY PLAN": { Plan: PlanNode }[] }[]>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql.text}`, ...sql.values);
        reads += readsOf(row!["QUERY PLAN"][0]!.Plan);
      }
      return { reads, result };
    }

    it.each(SORTS)("page 1,000,000,000 sorted by %s reads at most a page of rows, and answers the true totals", async (sort) => {
      const { reads, result } = await rowsRead(`page=1000000000&sort=${sort}`);
      expect(result).toEqual({ data: [], pagination: { total: N, length: N / 10, page: 1_000_000_000, per_page: 10 } });
      expect(reads).toBeLessThanOrEqual(10);
    });

    it("a deep page with a filter reads the table once, for its total", async () => {
      const { reads, result } = await rowsRead("email=.com&page=1000000000&sort=country_name");
      expect(result.pagination.total).toBe(N);
      expect(reads).toBeLessThanOrEqual(N);
    });

    it.each([
      [`first_name=${encodeURIComponent(EMOJI)}`, 2],
      ["first_name=q", 1],
      ["first_name=qi&sort=branch_name", 1],
      ["last_name=%C3%A9", 0],
    ])("%s keeps its exact total and reads the table once", async (query, total) => {
      const { reads, result } = await rowsRead(query);
      expect(result.pagination.total).toBe(total);
      expect(result.data).toHaveLength(total);
      expect(reads).toBeLessThanOrEqual(N + 10); // the table once, then the page's rows
    });

    it("GET /api/v1/subscribers?page=1000000000&sort=branch_name is an empty page with the true total", async () => {
      const response = await GET(apiRequest("/api/v1/subscribers?page=1000000000&sort=branch_name"), {});
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ data: [], pagination: { total: N, length: N / 10, page: 1_000_000_000, per_page: 10 } });
    });

    /** Every page of a query, in order (stops at the first short page). */
    async function allIds(query: string): Promise<{ ids: number[]; total: number }> {
      const ids: number[] = [];
      let total = -1;
      for (let page = 1; ; page++) {
        const { data, pagination } = await listSubscribers(EVERY, parse(`${query}&page=${page}`));
        total = pagination.total;
        ids.push(...data.map((r) => r.id));
        if (data.length < 10) return { ids, total };
      }
    }

    // Filters of 60 to 140 rows: every page is within 60 rows of one end.
    const FILTERS = ["is_mandatory=true&travel_date_from=2027-01-01", "email=11", "first_name=%C3%AB"];

    it.each(FILTERS)("%s: pages read backwards from the end, or among the ids of a rare filter, are the same pages", async (filter) => {
      for (const sort of SORTS) {
        const query = `${filter}&sort=${sort}`;
        setListLimitsForTests({ fewMatches: 0 }); // the plain reading, from the start
        const expected = await allIds(query);
        expect(expected.total).toBeGreaterThan(0);
        expect(expected.ids).toHaveLength(expected.total);
        for (const limits of [{ maxSkip: 60, fewMatches: 0 }, { maxSkip: 60 }, { maxSkip: 60, fewMatches: 3 }]) {
          setListLimitsForTests(limits);
          expect(await allIds(query), `${query} with ${JSON.stringify(limits)}`).toEqual(expected);
        }
      }
    });

    it("a page between the first and the last pages that can be read is a 400 naming them", async () => {
      setListLimitsForTests({ maxSkip: 100 });
      const response = await GET(apiRequest("/api/v1/subscribers?sort=last_name&page=50"), {});
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { code: string; message: string; fields: Record<string, string[]> } };
      expect(body.error.code).toBe("page_too_deep");
      expect(body.error.fields.page).toEqual(["Only pages 1–11 and 110–120 can be shown for this list."]);
      for (const page of [11, 110, 120]) {
        const response = await GET(apiRequest(`/api/v1/subscribers?sort=last_name&page=${page}`), {});
        expect(response.status, `page ${page}`).toBe(200);
      }
    });
  });
}
