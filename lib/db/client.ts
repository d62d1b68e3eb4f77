import { config } from "@/lib/config";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import type { PGlite } from "@electric-sql/pglite";
import { Prisma, PrismaClient } from "@/lib/generated/prisma/client";
import { databaseTarget, parallelWorkers, statementTimeoutMs, type DatabaseTarget } from "./config";
import { openPGlite } from "./pglite";
import { fairPGlite } from "./pglite-fair";
import { endPool } from "./end-pool";
import { consolePool } from "./pool";
import { rawQuery } from "./raw";
import { processWide } from "@/lib/process-wide";

export type Database = {
  prisma: PrismaClient;
  /** The embedded database, when that is what we run on (the job queue talks to it directly). */
  pglite: PGlite | null;
  target: DatabaseTarget;
  /** Whether statements are waiting for one of the pool's connections (PostgreSQL; never on PGlite). */
  busy(): boolean;
  /**
   * A raw statement outside any transaction, its rows as Prisma's `$queryRaw` gives them: on
   * PostgreSQL straight to the pool Prisma's adapter uses (lib/db/raw.ts), on PGlite through Prisma.
   */
  query<T>(statement: Prisma.Sql | string): Promise<T[]>;
  close(): Promise<void>;
};

type OpenOptions = {
  /**
   * PostgreSQL's statement_timeout on every connection of the pool, in ms (0: none). The app's
   * database (`db()`) takes DATABASE_STATEMENT_TIMEOUT_MS; scripts that build indexes or load
   * data open theirs without one.
   */
  statementTimeoutMs?: number;
  /** max_parallel_workers_per_gather on every connection (undefined: the server's setting). */
  parallelWorkers?: number;
};

/** Opens a database for a target; scripts and tests call this, the app uses `db()` below. */
export async function openDatabase(target: DatabaseTarget = databaseTarget(), options: OpenOptions = {}): Promise<Database> {
  if (target.kind === "postgres") {
    const timeout = options.statementTimeoutMs ?? 0;
    const pool = consolePool({
      connectionString: target.url,
      max: poolSize(),
      connectionTimeoutMillis: 5_000,
      application_name: "console",
      ...(timeout > 0 ? { statement_timeout: timeout } : {}),
      ...(options.parallelWorkers !== undefined ? { options: `-c max_parallel_workers_per_gather=${options.parallelWorkers}` } : {}),
    });
    // An idle connection's error (the server restarted, or ended it) is the pool's to handle: it
    // drops that connection and opens another when needed. The listener is ours, not left to
    // Prisma's adapter, which adds its own only once Prisma first connects (raw reads alone,
    // lib/db/raw.ts, never make it), and without one the "error" event ends the process.
    pool.on("error", (error) => console.warn(`database: idle connection lost: ${error.message}`));
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    return {
      prisma,
      pglite: null,
      target,
      busy: () => pool.waitingCount > 0,
      query: (statement) => rawQuery(pool, statement),
      close: async () => {
        await prisma.$disconnect();
        await endPool(pool); // every connection closed, not only asked to (lib/db/end-pool.ts)
      },
    };
  }
  const pglite = await openPGlite(target.dir);
  return fromPGlite(pglite, target, async () => {
    await pglite.close();
    pglite.release();
  });
}

export function fromPGlite(pglite: PGlite, target: DatabaseTarget, close: () => Promise<void>): Database {
  // Heavy lists' statements take turns per user instead of filling PGlite's one queue.
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(fairPGlite(pglite)) });
  return {
    prisma,
    pglite,
    target,
    busy: () => false,
    query: <T>(statement: Prisma.Sql | string) =>
      typeof statement === "string" ? prisma.$queryRawUnsafe<T[]>(statement) : prisma.$queryRaw<T[]>(statement),
    close: async () => {
      await prisma.$disconnect();
      await close();
    },
  };
}

const poolSize = () => config().DATABASE_POOL_SIZE;

const current = processWide("db.database", () => ({ database: undefined as Promise<Database> | undefined }));

/**
 * The process's one database (Next may load this module in several bundles: lib/process-wide.ts).
 * Opened on first use, never at import, so `next build` does not touch the data folder.
 */
export function db(): Promise<Database> {
  current.database ??= openDatabase(databaseTarget(), { statementTimeoutMs: statementTimeoutMs(), parallelWorkers: parallelWorkers() }).catch((error) => {
    current.database = undefined;
    throw error;
  });
  return current.database;
}

/** Shortcut for the common case. */
export async function prisma(): Promise<PrismaClient> {
  return (await db()).prisma;
}

/** Tests point the app's code at a database of their own. */
export function setDatabaseForTests(database: Database) {
  current.database = Promise.resolve(database);
}
