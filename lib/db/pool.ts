import pg from "pg";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ClientGoneError, querySignal } from "./scope";
import { log } from "@/lib/telemetry/log";
import { watchPool } from "@/lib/telemetry/metrics";

// Raw statements on pg's own pool and values (docs/decisions/0023-raw-reads-on-the-driver.md). A
// gone request's statement is stopped by closing its connection, which PostgreSQL notices mid-statement.

/** How often a backend looks whether its client is still connected while a statement runs. */
const CLIENT_CHECK_INTERVAL_MS = 250;

/** How long a gone request's statement may still run before its connection is closed; most finish within it. */
const CANCEL_GRACE_MS = 100;

/** A pg pool whose backends notice a closed connection mid-statement; its idle connections' errors are logged. */
export function openPool(config: pg.PoolConfig & { name: string }): pg.Pool {
  const { name, options, ...rest } = config;
  const check = `-c client_connection_check_interval=${CLIENT_CHECK_INTERVAL_MS}`;
  const pool = new pg.Pool({ ...rest, application_name: name, options: options ? `${options} ${check}` : check });
  // Without a listener, an idle connection's "error" event would end the process.
  pool.on("error", (error) => log.warn(`${name}: idle connection lost: ${error.message}`));
  watchPool(pool, name);
  return pool;
}

// A day (`date`) is read as midnight UTC, as PGlite and Prisma read it, not in the server's zone.
const DATE = pg.types.builtins.DATE;
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === DATE ? (v: string) => new Date(`${v}T00:00:00Z`) : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig["getTypeParser"],
};

type Statement = Prisma.Sql | string;

const toConfig = (statement: Statement): pg.QueryConfig =>
  typeof statement === "string" ? { text: statement, types } : { text: statement.text, values: statement.values, types };

/** Runs one statement; inside a request's scope on its own connection, closed if the client goes away (lib/db/scope.ts). */
export async function poolQuery<T>(pool: pg.Pool, statement: Statement): Promise<T[]> {
  const signal = querySignal();
  if (!signal) return (await pool.query(toConfig(statement))).rows as T[];
  if (signal.aborted) throw new ClientGoneError();
  const client = await pool.connect();
  if (signal.aborted) {
    client.release();
    throw new ClientGoneError();
  }
  let failed = false;
  let gone = false;
  let grace: ReturnType<typeof setTimeout> | undefined;
  // A checked-out client's "error" event (the server went away) with no listener would crash the process.
  const onError = () => void (failed = true);
  const onAbort = () => {
    grace = setTimeout(() => {
      gone = true;
      void client.end(); // pg closes the socket of a connection with a statement running
    }, CANCEL_GRACE_MS);
  };
  client.on("error", onError);
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    return (await client.query(toConfig(statement))).rows as T[];
  } catch (error) {
    failed = true;
    if (gone) throw new ClientGoneError({ cause: error });
    throw error;
  } finally {
    signal.removeEventListener("abort", onAbort);
    clearTimeout(grace);
    client.off("error", onError);
    // As pg's own pool.query does, a client whose statement failed is not reused.
    client.release(failed || gone);
  }
}
