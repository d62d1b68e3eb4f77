import crypto from "node:crypto";
import pg from "pg";

export type TestDatabase = {
  /** Connection string of the new, empty database. */
  url: string;
  /** The database's name (console_test_<random>). */
  name: string;
  /** Drops the database (terminating its connections); safe to call twice. */
  drop(): Promise<void>;
};

/**
 * Creates a fresh PostgreSQL database on the server of `baseUrl` (e.g. TEST_DATABASE_URL,
 * postgres://postgres@127.0.0.1:5432/postgres), empty or a copy of `template`, and returns its URL. Tests must drop it in
 * afterAll: CI runs against the server as the last session left it.
 */
export async function createTestDatabase(baseUrl: string, template?: string): Promise<TestDatabase> {
  const name = `console_test_${crypto.randomBytes(6).toString("hex")}`;
  await withAdmin(baseUrl, (client) => client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`));
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    name,
    async drop() {
      if (dropped) return;
      // WITH (FORCE) (PostgreSQL 13+) ends the connections a test may have left open.
      await withAdmin(baseUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
      dropped = true;
    },
  };
}

async function withAdmin<T>(baseUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * How many connections to `client`'s database wait for a lock: a race test holds a row with an
 * uncommitted write, then polls this until the request under test is blocked on it.
 */
export async function waitingForLocks(client: Pick<pg.ClientBase, "query">): Promise<number> {
  const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
  return rows[0]!.n;
}
