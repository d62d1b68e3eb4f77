import { config } from "@/lib/config";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import type { PGlite } from "@electric-sql/pglite";
import { Prisma, PrismaClient } from "@/lib/generated/prisma/client";
import { processWide } from "@/lib/process-wide";
import { databaseTarget, parallelWorkers, statementTimeoutMs, type DatabaseTarget } from "./config";
import { openPGlite } from "./pglite";
import { fairPGlite } from "./pglite-fair";
import { endPool } from "./end-pool";
import { openPool, poolQuery } from "./pool";
import { poolShare } from "@/lib/server/web-processes";

export type Database = {
  prisma: PrismaClient;
  /** The embedded database, when that is what we run on (the job queue talks to it directly). */
  pglite: PGlite | null;
  target: DatabaseTarget;
  /** Whether statements are waiting for one of the pool's connections (PostgreSQL; never on PGlite). */
  busy(): boolean;
  /** A raw statement outside any transaction, on the driver Prisma's adapter uses (docs/decisions/0023-raw-reads-on-the-driver.md). */
  query<T>(statement: Prisma.Sql | string): Promise<T[]>;
  close(): Promise<void>;
};

type OpenOptions = {
  /** statement_timeout on every connection, in ms (0: none); scripts that build indexes or load data open without one. */
  statementTimeoutMs?: number;
  /** max_parallel_workers_per_gather on every connection (undefined: the server's setting). */
  parallelWorkers?: number;
};

/** Opens a database for a target; scripts and tests call this, the app uses `db()` below. */
export async function openDatabase(target: DatabaseTarget = databaseTarget(), options: OpenOptions = {}): Promise<Database> {
  if (target.kind === "postgres") {
    const timeout = options.statementTimeoutMs ?? 0;
    const pool = openPool({
      name: "console",
      connectionString: target.url,
      max: poolSize(),
      connectionTimeoutMillis: 5_000,
      ...(timeout > 0 ? { statement_timeout: timeout } : {}),
      ...(options.parallelWorkers !== undefined ? { options: `-c max_parallel_workers_per_gather=${options.parallelWorkers}` } : {}),
    });
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    return {
      prisma,
      pglite: null,
      target,
      busy: () => pool.waitingCount > 0,
      query: (statement) => poolQuery(pool, statement),
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
  const fair = fairPGlite(pglite);
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(fair) });
  return {
    prisma,
    pglite,
    target,
    busy: () => false,
    query: async <T>(statement: Prisma.Sql | string) =>
      (typeof statement === "string" ? await fair.query<T>(statement) : await fair.query<T>(statement.text, [...statement.values])).rows,
    close: async () => {
      await prisma.$disconnect();
      await close();
    },
  };
}

/** The server's connections, shared among its web processes (lib/server/web-processes.ts). */
const poolSize = () => poolShare(config());

/** The process's one database, whichever copy of this module asks (lib/process-wide.ts). */
const opened = processWide("db.database", () => ({ current: undefined as Promise<Database> | undefined }));

/** The process's one database, opened on first use, never at import, so `next build` does not touch the data folder. */
export function db(): Promise<Database> {
  opened.current ??= openDatabase(databaseTarget(), { statementTimeoutMs: statementTimeoutMs(), parallelWorkers: parallelWorkers() }).catch((error) => {
    opened.current = undefined;
    throw error;
  });
  return opened.current;
}

/** Shortcut for the common case. */
export const prisma = async (): Promise<PrismaClient> => (await db()).prisma;

/** Tests point the app's code at a database of their own. */
export function setDatabaseForTests(database: Database) {
  opened.current = Promise.resolve(database);
}
