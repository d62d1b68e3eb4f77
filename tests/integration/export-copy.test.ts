import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/client";
import { exportQuery, exportRows } from "@/lib/export/rows";
import { closeConnection, connection } from "@/lib/db/sql";
import { subscriberFilterOnlySchema } from "@/lib/subscribers/filters";
import { testDatabase, testDbKinds } from "../helpers/db";
import { seedSubscribers } from "../helpers/export-data";
import { branchScope } from "@/lib/auth/scope";

const EVERY = branchScope({ role: "admin", branch_ids: null });

// The export reads its rows as COPY text in keyset batches, with the filters' values written
// into the statement as literals. Through real databases: every value (tabs, line breaks,
// backslashes, quotes, accents) and every row comes back exactly as a plain parameterised
// SELECT returns them, for hostile filter values too.

const HOSTILE = ["back\\slash", "tab\there", "line\nbreak\r\n", "quote'd", 'dq"x', "\\N", "\\", "%_", "Zoë\u000b\b\f"];

for (const kind of testDbKinds()) {
  describe(`export rows as COPY text (${kind})`, () => {
    let database: Database;
    let pool: pg.Pool | null = null;
    beforeAll(async () => {
      database = await testDatabase(kind);
      if (database.target.kind === "postgres") pool = new pg.Pool({ connectionString: database.target.url, max: 1 });
      await seedSubscribers((text) => database.prisma.$executeRawUnsafe(text), 1000);
      for (const [i, name] of HOSTILE.entries()) {
        await database.prisma.$executeRaw`UPDATE subscribers SET first_name = ${name}, last_name = ${`${name}|${i}`} WHERE id = ${10 * (i + 1)}`;
      }
    });
    afterAll(async () => {
      await pool?.end();
      await closeConnection();
      await database.close();
    });

    /** What a parameterised SELECT of the same rows returns (nulls as the empty cells they become). */
    const expected = async (raw: Record<string, string>) => {
      const q = exportQuery(EVERY, subscriberFilterOnlySchema.parse(raw));
      // Arrays (the SELECT list repeats column names), through the database's own driver.
      const rows =
        database.target.kind === "postgres"
          ? (await pool!.query({ text: q.text, values: q.values, rowMode: "array" })).rows as unknown[][]
          : (await database.pglite!.query<unknown[]>(q.text, q.values, { rowMode: "array" })).rows;
      return rows.map((r) => r.map((v) => (v === null ? "" : String(v))));
    };
    const read = async (raw: Record<string, string>, batchSize: number) => {
      const filters = subscriberFilterOnlySchema.parse(raw);
      return (await connection()).read(async (reader) => {
        const out: string[][] = [];
        for await (const batch of exportRows(reader, EVERY, filters, batchSize)) out.push(...batch);
        return out;
      });
    };

    it("reads every row and value back exactly, across keyset batches", async () => {
      const all = await expected({});
      expect(all).toHaveLength(1000);
      expect(all.map((r) => r[1])).toEqual(expect.arrayContaining(HOSTILE));
      for (const size of [7, 1000, 5000]) expect(await read({}, size)).toEqual(all);
    });

    it.each<Record<string, string>>([
      { first_name: "back\\sl" },
      { last_name: "quote'd|" },
      { first_name: "%_" },
      { last_name: "\\N|" },
      { sheet: "spring", is_mandatory: "true" },
      { created_from: "2026-01-01", created_to: "2026-01-01", subscription_status: "active" },
      { id: "500" },
    ])("selects the same rows as the list's parameters for %j", async (raw) => {
      const rows = await expected(raw);
      expect(rows.length).toBeGreaterThan(0);
      expect(await read(raw, 3)).toEqual(rows);
    });
  });
}
