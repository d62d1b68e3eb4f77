import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endPool } from "@/lib/db/end-pool";
import { bulkLoad } from "@/tools/seed/bulk";
import { createTestDatabase, type TestDatabase } from "../helpers/postgres";

// Issue 19, point 9: `npm run db:bulk -- --database NAME` on an existing empty database crashed:
// its `DROP DATABASE … WITH (FORCE)` killed a connection that its own pool still held (pg's
// `pool.end()` resolves before its connections are closed; the killed one's error was an `error`
// event with no listener). PostgreSQL only.

if (!process.env.TEST_DATABASE_URL) {
  console.info("bulk-load.test.ts: TEST_DATABASE_URL is not set, so the bulk loader's PostgreSQL tests are skipped.");
}

describe.skipIf(!process.env.TEST_DATABASE_URL)("bulk loader on PostgreSQL", () => {
  const server = process.env.TEST_DATABASE_URL!;
  let admin: pg.Client;
  const databases: TestDatabase[] = [];

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: server });
    await admin.connect();
  });
  afterAll(async () => {
    for (const d of databases) await d.drop();
    await admin?.end();
  });

  it("closes its pool only once the server holds none of its connections, so a forced drop right after hurts nobody", async () => {
    const database = await createTestDatabase(server);
    databases.push(database);
    for (let run = 0; run < 30; run++) {
      const pool = new pg.Pool({ connectionString: database.url, max: 2, application_name: `bulk-close-${run}` });
      await Promise.all([pool.query("SELECT pg_sleep(0.01)"), pool.query("SELECT pg_sleep(0.01)")]);
      expect(pool.totalCount).toBe(2);
      await endPool(pool);
      const { rows } = await admin.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1`,
        [`bulk-close-${run}`],
      );
      expect(rows[0]!.n, `run ${run}`).toBe(0);
    }
  });

  it("fills an existing empty database (dropped and created again as its own)", async () => {
    const database = await createTestDatabase(server);
    databases.push(database);
    const events: string[] = [];
    const result = await bulkLoad({
      target: { kind: "postgres", url: database.url },
      subscribers: 50,
      progress: (e) => void (e.message && events.push(e.message)),
    });
    expect(result.loaded).toBe(true);
    expect(events).toContain(`dropping ${database.name} (empty)`);
    const check = new pg.Client({ connectionString: database.url });
    await check.connect();
    const { rows } = await check.query<{ n: number }>(`SELECT count(*)::int AS n FROM subscribers`);
    await check.end();
    expect(rows[0]!.n).toBe(50);
  });
});
