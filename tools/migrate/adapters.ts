// The driver adapters the schema engine talks through, with the fixes they need: PrismaPg for a
// PostgreSQL server, PrismaPGlite for the embedded database (and scratch PGlites where the engine
// needs a database of its own). Each fix says which bug it works around; check them on upgrades.
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { openPGlite } from "@/lib/db/pglite";
import type { MigrationTarget } from "./paths";

/**
 * Wraps an adapter factory to remember every connection the engine opens, so that we can close
 * them ourselves: freeing the engine does not dispose them, and an open pg pool keeps the process
 * alive.
 */
export class TrackingFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider: "postgres";
  readonly adapterName: string;
  private readonly connections: SqlDriverAdapter[] = [];

  constructor(private readonly inner: SqlMigrationAwareDriverAdapterFactory) {
    this.provider = inner.provider as "postgres";
    this.adapterName = inner.adapterName;
  }

  async connect() {
    return this.track(await this.inner.connect());
  }

  async connectToShadowDb() {
    return this.track(await this.inner.connectToShadowDb());
  }

  private track(connection: SqlDriverAdapter) {
    this.connections.push(connection);
    return connection;
  }

  async disposeAll() {
    for (const connection of this.connections.splice(0)) {
      await connection.dispose().catch(() => {});
    }
  }
}

/**
 * pglite-prisma-adapter 0.7.2's `executeScript` (what the engine runs a migration.sql with) does
 * not await PGlite's `exec`: a failing migration becomes an unhandled rejection that kills the
 * process, and the engine goes on as if the script had succeeded. Run it properly, with the
 * adapter's own error conversion.
 */
function awaitScripts(connection: SqlDriverAdapter, pglite: PGlite): SqlDriverAdapter {
  const onError = (connection as unknown as { onError(error: unknown): never }).onError.bind(connection);
  connection.executeScript = async (script: string) => {
    try {
      await pglite.exec(script);
    } catch (error) {
      onError(error);
    }
  };
  return connection;
}

/**
 * A fresh in-memory PGlite with the same extensions as ours, closed when the engine's connection
 * to it is disposed. Used as the shadow database of PGlite targets (the adapter's own shadow is a
 * bare PGlite that cannot run `CREATE EXTENSION pg_trgm`) and as the scratch database of
 * operations that need none.
 */
async function scratchPGlite(): Promise<SqlDriverAdapter> {
  const pglite = await openPGlite();
  const connection = awaitScripts(await new PrismaPGlite(pglite).connect(), pglite);
  const dispose = connection.dispose.bind(connection);
  connection.dispose = async () => {
    await dispose();
    if (!pglite.closed) await pglite.close();
  };
  return connection;
}

function pgliteFactory(pglite: PGlite): SqlMigrationAwareDriverAdapterFactory {
  const inner = new PrismaPGlite(pglite);
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    connect: async () => awaitScripts(await inner.connect(), pglite),
    connectToShadowDb: scratchPGlite,
  };
}

/** For operations that need no database: a scratch PGlite, opened only if the engine asks. */
const scratchFactory: SqlMigrationAwareDriverAdapterFactory = {
  provider: "postgres",
  adapterName: "@prisma/adapter-pglite (scratch)",
  connect: scratchPGlite,
  connectToShadowDb: scratchPGlite,
};

/**
 * @prisma/adapter-pg 7.10 has no column type for PostgreSQL's internal `"char"` (oid 18), which
 * the engine's describer selects from the catalogs (pg_class.relkind…): describing a live server
 * (a diff from a database) failed with "Column type 'char' could not be deserialized from the
 * database". Report those columns as text (oid 25), which is what a `"char"` value is to us;
 * pglite-prisma-adapter maps it itself. Only touches the adapter's internal `performIO` when it
 * exists, so a newer adapter without it is left alone.
 */
type PerformIO = (query: unknown) => Promise<{ fields: { dataTypeID: number }[] }>;
function charAsText<T extends object>(queryable: T): T {
  const target = queryable as T & { performIO?: PerformIO; startTransaction?: (...args: unknown[]) => Promise<object> };
  const performIO = target.performIO?.bind(target);
  if (performIO) {
    target.performIO = async (query) => {
      const result = await performIO(query);
      for (const field of result.fields) if (field.dataTypeID === 18) field.dataTypeID = 25;
      return result;
    };
  }
  const startTransaction = target.startTransaction?.bind(target);
  if (startTransaction) target.startTransaction = async (...args) => charAsText(await startTransaction(...args));
  return queryable;
}

/**
 * @prisma/adapter-pg 7.10's `executeScript` splits a migration at every `;` and sends the pieces
 * one by one, which breaks any function body (and any `;` inside a string). Send the script
 * whole instead, as `prisma migrate deploy` and PGlite do: PostgreSQL's simple query protocol runs
 * several statements in one call, as one implicit transaction.
 */
function wholeScripts(connection: SqlDriverAdapter): SqlDriverAdapter {
  const client = (connection as unknown as { underlyingDriver(): { query(text: string): Promise<unknown> } }).underlyingDriver();
  const onError = (connection as unknown as { onError(error: unknown): never }).onError.bind(connection);
  connection.executeScript = async (script: string) => {
    try {
      await client.query(script);
    } catch (error) {
      onError(error);
    }
  };
  return connection;
}

function pgFactory(url: string): SqlMigrationAwareDriverAdapterFactory {
  const inner = new PrismaPg({ connectionString: url });
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    connect: async () => wholeScripts(charAsText(await inner.connect())),
    connectToShadowDb: async () => wholeScripts(charAsText(await inner.connectToShadowDb())),
  };
}

/** The factory for a target, wrapped to close every connection the engine opened. */
export function adapterFactoryFor(target: MigrationTarget | null): TrackingFactory {
  if (target === null) return new TrackingFactory(scratchFactory);
  if (typeof target === "string") return new TrackingFactory(pgFactory(target));
  return new TrackingFactory(pgliteFactory(target));
}

