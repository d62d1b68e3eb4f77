import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { Prisma } from "@/lib/generated/prisma/client";
import { config } from "@/lib/config";
import { db, type Database } from "./client";
import type { DatabaseTarget } from "./config";
import { processWide } from "@/lib/process-wide";
import { endPool } from "./end-pool";
import { openPool } from "./pool";

// The one way to send raw SQL, on PGlite and PostgreSQL alike: values always bound via the `sql`
// tag (docs/decisions/0003-raw-sql-for-list-queries.md, 0023-raw-reads-on-the-driver.md). The two
// drivers differ on int8 and numeric, so statements cast those (`count(*)::int`, `id::text`).
// No "server-only": the worker process and scripts import this too.

export type Statement = Prisma.Sql;
export const sql = Prisma.sql;
export const join = Prisma.join;
export const empty = Prisma.empty;

type Row = Record<string, unknown>;

/** Anything statements run on: a connection, a transaction, a pool. */
export type Queryable = { query<T = Row>(statement: Statement | string): Promise<T[]> };

/** What reads an export's rows: statements, and COPY's output of a SELECT. */
export type Reader = Queryable & {
  /** `COPY (select) TO … WITH (FORMAT text, NULL '')`: its output, chunk by chunk. */
  copyOut(select: string): AsyncIterable<Uint8Array | string>;
};

export type SqlConnection = Queryable & {
  kind: "pglite" | "postgres";
  /** pg-boss's `db` interface: several statements at once when there are no values. */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  /** Runs `run` on one snapshot (PostgreSQL: a read-only REPEATABLE READ transaction), so an export holds exactly the rows it counted. */
  read<T>(run: (reader: Reader) => Promise<T>): Promise<T>;
  /** Runs `run` holding a session advisory lock named `key`, so processes doing the same wait for each other. */
  exclusive<T>(key: string, run: () => Promise<T>): Promise<T>;
  /** `run` on `n` connections at once (PGlite has one: it runs once). */
  sessions(n: number, run: (session: Queryable) => Promise<void>): Promise<void>;
  close(): Promise<void>;
};

const text = (statement: Statement | string) => (typeof statement === "string" ? { text: statement, values: undefined } : { text: statement.text, values: statement.values });

/** Prisma's client or one of its transactions: raw statements run there beside its record access. */
type PrismaLike = { $queryRaw<T = unknown>(query: Statement): Promise<T>; $queryRawUnsafe<T = unknown>(query: string): Promise<T> };

/** Statements on Prisma's client or one of its transactions (`tx.query` in lib/db/transaction.ts). */
export function within(tx: PrismaLike): Queryable {
  return {
    query: <T>(statement: Statement | string) =>
      typeof statement === "string" ? tx.$queryRawUnsafe<T[]>(statement) : tx.$queryRaw<T[]>(statement),
  };
}

/** A statement on the app's database (`db()`), on the driver of Prisma's adapter, outside any transaction. */
export const query = async <T = Row>(statement: Statement | string): Promise<T[]> => (await db()).query<T>(statement);

function pgliteQueryable(p: Pick<PGlite, "query" | "exec">): Queryable & Pick<SqlConnection, "executeSql"> {
  return {
    query: async <T>(statement: Statement | string) => {
      const { text: t, values } = text(statement);
      return (await p.query<T>(t, values ? [...values] : undefined)).rows;
    },
    executeSql: async (t, values) => {
      if (values && values.length > 0) return p.query(t, values);
      const results = await p.exec(t);
      return results.at(-1) ?? { rows: [] };
    },
  };
}

type Client = pg.Pool | pg.PoolClient;

function pgQueryable(c: Client): Queryable & Pick<SqlConnection, "executeSql"> {
  return {
    query: async <T>(statement: Statement | string) => {
      const { text: t, values } = text(statement);
      return (await c.query(t, values ? [...values] : undefined)).rows as T[];
    },
    executeSql: (t, values) => c.query(t, values),
  };
}

const COPY_OPTIONS = "WITH (FORMAT text, NULL '')";

function fromPGlite(pglite: PGlite): SqlConnection {
  const base = pgliteQueryable(pglite);
  const reader: Reader = {
    query: base.query,
    // PGlite writes COPY output to a Blob (one chunk per statement).
    async *copyOut(select) {
      const result = await pglite.query(`COPY (${select}) TO '/dev/blob' ${COPY_OPTIONS}`);
      if (result.blob) yield new Uint8Array(await result.blob.arrayBuffer());
    },
  };
  return {
    ...base,
    kind: "pglite",
    read: (run) => run(reader),
    exclusive: (_key, run) => run(),
    sessions: (_n, run) => run(base),
    close: async () => {},
  };
}

/** A pooled connection for `work`; one lost or discarded is closed, not reused. Without the "error" listener a lost client would crash the process. */
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

function fromPool(pool: pg.Pool, close: () => Promise<void>): SqlConnection {
  return {
    ...pgQueryable(pool),
    kind: "postgres",
    read: (run) =>
      withConnection(pool, async (client, discard) => {
        const reader: Reader = {
          ...pgQueryable(client),
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
    sessions: async (n, run) => {
      await Promise.all(Array.from({ length: n }, () => withConnection(pool, (client) => run(pgQueryable(client)))));
    },
    close,
  };
}

/** Connections to a script's own database; `close()` ends them completely (it may be dropped next). */
export function openSql(target: { pglite: PGlite } | { url: string; max?: number; name?: string }): SqlConnection {
  if ("pglite" in target) return fromPGlite(target.pglite);
  const pool = openPool({ connectionString: target.url, max: target.max ?? 2, name: target.name ?? "console-script" });
  return fromPool(pool, () => endPool(pool));
}

/** The target's connections for an opened Database (PGlite shares its instance). */
function forDatabase(database: Database): SqlConnection {
  if (database.pglite) return fromPGlite(database.pglite);
  const target: DatabaseTarget = database.target;
  if (target.kind !== "postgres") throw new Error("A database without PGlite must be a PostgreSQL server.");
  // A bounded wait (503 busy, or a retried job attempt) instead of hanging; one connection per
  // concurrent job plus two for the queue's polls and queuing requests (docs/decisions/0022-jobs-fair-per-user.md).
  const max = config().JOB_CONCURRENCY + 2;
  const pool = openPool({ connectionString: target.url, max, connectionTimeoutMillis: 5_000, name: "console-export" });
  return fromPool(pool, () => pool.end());
}

/** The connections of the process's database, whichever copy of this module asks (lib/process-wide.ts). */
const made = processWide("db.connection", () => ({ current: undefined as { database: Database; connection: SqlConnection } | undefined }));

/** The process's connections to its database (`db()`), made once per database. */
export async function connection(): Promise<SqlConnection> {
  const database = await db();
  if (made.current?.database !== database) {
    const previous = made.current?.connection;
    made.current = { database, connection: forDatabase(database) };
    await previous?.close().catch(() => {});
  }
  return made.current.connection;
}

/** Closes the process's connections (tests, worker shutdown); the next use opens new ones. */
export async function closeConnection(): Promise<void> {
  const current = made.current;
  made.current = undefined;
  await current?.connection.close();
}
