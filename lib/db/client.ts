import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import type { PGlite } from "@electric-sql/pglite";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { databaseTarget, type DatabaseTarget } from "./config";
import { openPGlite } from "./pglite";

export type Database = {
  prisma: PrismaClient;
  /** The embedded database, when that is what we run on (the job queue talks to it directly). */
  pglite: PGlite | null;
  target: DatabaseTarget;
  close(): Promise<void>;
};

/** Opens a database for a target; scripts and tests call this, the app uses `db()` below. */
export async function openDatabase(target: DatabaseTarget = databaseTarget()): Promise<Database> {
  if (target.kind === "postgres") {
    const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: target.url, max: poolSize(), connectionTimeoutMillis: 5_000 }) });
    return { prisma, pglite: null, target, close: () => prisma.$disconnect() };
  }
  const pglite = await openPGlite(target.dir);
  return fromPGlite(pglite, target, async () => {
    await pglite.close();
    pglite.release();
  });
}

export function fromPGlite(pglite: PGlite, target: DatabaseTarget, close: () => Promise<void>): Database {
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  return {
    prisma,
    pglite,
    target,
    close: async () => {
      await prisma.$disconnect();
      await close();
    },
  };
}

function poolSize() {
  const n = Number(process.env.DATABASE_POOL_SIZE);
  return Number.isInteger(n) && n > 0 ? n : 10;
}

type Holder = { __console_db?: Promise<Database> };

/**
 * The process's one database (Next may load this module in several bundles, hence globalThis).
 * Opened on first use, never at import, so `next build` does not touch the data folder.
 */
export function db(): Promise<Database> {
  const holder = globalThis as Holder;
  holder.__console_db ??= openDatabase().catch((error) => {
    holder.__console_db = undefined;
    throw error;
  });
  return holder.__console_db;
}

/** Shortcut for the common case. */
export async function prisma(): Promise<PrismaClient> {
  return (await db()).prisma;
}

/** Tests point the app's code at a database of their own. */
export function setDatabaseForTests(database: Database) {
  (globalThis as Holder).__console_db = Promise.resolve(database);
}
