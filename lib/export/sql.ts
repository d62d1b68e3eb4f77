import type { PGlite, Transaction } from "@electric-sql/pglite";
import pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { db, type Database } from "@/lib/db/client";
import { consolePool } from "@/lib/db/pool";

// The export talks SQL directly (the job queue needs the connection of our own transaction, and
// the rows stream faster without an ORM), over the process's one PGlite or a small pg pool.
// No "server-only": the separate worker process (scripts/worker.ts) imports this too.

export type Values = readonly unknown[];

/** One connection (or the pool): what both the export's code and pg-boss run statements on. */
export type Sql = {
  query<T = Record<string, unknown>>(text: string, values?: Values): Promise<T[]>;
  /** pg-boss's `db` interface: several statements at once when there are no values. */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
};

/** What reads an export's rows: statements, and COPY's output of a SELECT. */
export type Reader = Pick<Sql, "query"> & {
  /** `COPY (select) TO … WITH (FORMAT text, NULL '')`: its output, chunk by chunk. */
  copyOut(select: string): AsyncIterable<Uint8Array | string>;
};

export type ExportSql = Sql & {
  kind: "pglite" | "postgres";
  transaction<T>(run: (tx: Sql) => Promise<T>): Promise<T>;
  /**
   * Runs `run` with a reader of its own. On PostgreSQL: one connection in a read-only
   * REPEATABLE READ transaction, so that the count and every batch see the same snapshot (the
   * file holds exactly the rows counted, whatever is written meanwhile). On PGlite, which has one
   * connection, the statements run one by one like any others.
   */
  read<T>(run: (reader: Reader) => Promise<T>): Promise<T>;
  /**
   * Runs `run` while holding the PostgreSQL advisory lock named `key` (session-level, on a
   * connection of its own), so that processes doing the same wait for each other; statements in
   * `run` go through the pool as usual. On PGlite (one process) it simply runs.
   */
  exclusive<T>(key: string, run: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

type PGliteLike = Pick<PGlite, "query" | "exec"> | Transaction;

function pgliteSql(p: PGliteLike): Sql {
  return {
    query: async <T>(text: string, values?: Values) => (await p.query<T>(text, values ? [...values] : undefined)).rows,
    executeSql: async (text, values) => {
      if (values && values.length > 0) return p.query(text, values);
      const results = await p.exec(text);
      return results.at(-1) ?? { rows: [] };
    },
  };
}

type Client = pg.Pool | pg.PoolClient;

function pgSql(c: Client): Sql {
  return {
    query: async <T>(text: string, values?: Values) =>
      (await c.query(text, values ? [...values] : undefined)).rows as T[],
    executeSql: (text, values) => c.query(text, values),
  };
}

const COPY_OPTIONS = "WITH (FORMAT text, NULL '')";

function fromPGlite(pglite: PGlite): ExportSql {
  const sql = pgliteSql(pglite);
  const reader: Reader = {
    query: sql.query,
    // PGlite writes COPY output to a Blob (one chunk per statement).
    async *copyOut(select) {
      const result = await pglite.query(`COPY (${select}) TO '/dev/blob' ${COPY_OPTIONS}`);
      if (result.blob) yield new Uint8Array(await result.blob.arrayBuffer());
    },
  };
  return {
    ...sql,
    kind: "pglite",
    transaction: (run) => pglite.transaction((tx) => run(pgliteSql(tx))),
    read: (run) => run(reader),
    exclusive: (_key, run) => run(),
    close: async () => {},
  };
}

/**
 * A pooled connection for `work`. One that was lost while checked out (its "error" event: the
 * server stopped), or that `work` calls `discard` on, is closed instead of going back to the pool.
 * The listener matters: a checked-out pg client's "error" event with none is an uncaught exception.
 */
async function withConnection<T>(pool: pg.Pool, work: (client: pg.PoolClient, discard: () => void) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  const discard = () => void (broken = true);
  client.on("error", discard);
  try {
    return await work(client, discard);
  } finally {
    client.off("error", discard);
    client.release(broken);
  }
}

function fromPool(url: string): ExportSql {
  // Its statements are cancelled with their request, like the app's (lib/db/pool.ts).
  const pool = consolePool({ connectionString: url, max: 4, application_name: "console-export" });
  pool.on("error", (error) => console.error("export: idle database connection failed", error));
  return {
    ...pgSql(pool),
    kind: "postgres",
    read: (run) =>
      withConnection(pool, async (client, discard) => {
        const reader: Reader = {
          ...pgSql(client),
          async *copyOut(select) {
            yield* client.query(copyTo(`COPY (${select}) TO STDOUT ${COPY_OPTIONS}`));
          },
        };
        try {
          await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
          const result = await run(reader);
          await client.query("COMMIT");
          return result;
        } catch (error) {
          discard(); // it may be in the middle of a COPY: not reusable
          throw error;
        }
      }),
    transaction: (run) =>
      withConnection(pool, async (client, discard) => {
        await client.query("BEGIN");
        try {
          const result = await run(pgSql(client));
          await client.query("COMMIT");
          return result;
        } catch (error) {
          await client.query("ROLLBACK").catch(discard);
          throw error;
        }
      }),
    exclusive: (key, run) =>
      withConnection(pool, async (client, discard) => {
        await client.query("SELECT pg_advisory_lock(hashtextextended($1, 0))", [key]);
        try {
          return await run();
        } finally {
          // A lost connection has released the lock with it; it is not reused (discard).
          await client.query("SELECT pg_advisory_unlock(hashtextextended($1, 0))", [key]).catch(discard);
        }
      }),
    close: () => pool.end(),
  };
}

type Holder = { __export_sql?: { database: Database; sql: ExportSql } };

/** The export's connection for the process's database (`db()`), made once per database. */
export async function exportSql(): Promise<ExportSql> {
  const database = await db();
  const holder = globalThis as Holder;
  if (holder.__export_sql?.database !== database) {
    const previous = holder.__export_sql?.sql;
    const sql = database.pglite ? fromPGlite(database.pglite) : fromPool(urlOf(database));
    holder.__export_sql = { database, sql };
    await previous?.close().catch(() => {});
  }
  return holder.__export_sql.sql;
}

function urlOf(database: Database): string {
  if (database.target.kind !== "postgres") throw new Error("A PostgreSQL target needs a URL.");
  return database.target.url;
}

/** Closes the export's pool (tests, worker shutdown); the next use opens a new one. */
export async function closeExportSql(): Promise<void> {
  const holder = globalThis as Holder;
  const current = holder.__export_sql;
  holder.__export_sql = undefined;
  await current?.sql.close();
}
