import pg from "pg";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ClientGoneError, querySignal } from "./scope";

// Raw statements on PostgreSQL, on pg's own pool and with pg's own values (docs/decisions/0023-raw-reads-on-the-driver.md).
// A statement of a request whose client has gone away is stopped by closing its connection:
// PostgreSQL notices a closed connection while it runs (client_connection_check_interval) and ends
// the statement there, instead of running it on for nobody.

/** How often a backend looks whether its client is still connected while a statement runs. */
const CLIENT_CHECK_INTERVAL_MS = 250;

/**
 * How long a statement of a request whose client went away may still run before its connection is
 * closed. Most finish within it (a list's statements take milliseconds) and their connection goes
 * back to the pool as usual; a closed one is replaced by a new one when needed.
 */
const CANCEL_GRACE_MS = 100;

/** A pg pool whose backends notice a closed connection mid-statement; its idle connections' errors are logged. */
export function openPool(config: pg.PoolConfig & { name: string }): pg.Pool {
  const { name, options, ...rest } = config;
  const check = `-c client_connection_check_interval=${CLIENT_CHECK_INTERVAL_MS}`;
  const pool = new pg.Pool({ ...rest, application_name: name, options: options ? `${options} ${check}` : check });
  // An idle connection's error (the server restarted, or ended it) is the pool's to handle: it
  // drops that connection. Without a listener the "error" event would end the process.
  pool.on("error", (error) => console.warn(`${name}: idle connection lost: ${error.message}`));
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

/**
 * Runs one statement on `pool`. Inside a request's scope (lib/db/scope.ts) it has a connection of
 * its own, closed if the request's client goes away and the statement is still running a grace later.
 */
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
