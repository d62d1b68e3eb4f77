import { config } from "@/lib/config";

/** Where the data lives: a PostgreSQL server when DATABASE_URL names one, else embedded PGlite. */
export type DatabaseTarget =
  | { kind: "postgres"; url: string }
  | { kind: "pglite"; dir: string };

export function databaseTarget(): DatabaseTarget {
  const { DATABASE_URL: url, PGLITE_DIR: dir } = config();
  return url ? { kind: "postgres", url } : { kind: "pglite", dir };
}

/**
 * DATABASE_STATEMENT_TIMEOUT_MS: the longest a statement of the console may run on a PostgreSQL
 * server (its connections' statement_timeout); 0 turns it off. Default 5000.
 */
export const statementTimeoutMs = (): number => config().DATABASE_STATEMENT_TIMEOUT_MS;

/**
 * DATABASE_PARALLEL_WORKERS: PostgreSQL's max_parallel_workers_per_gather on the console's
 * connections. Default 0: one request runs on one core of the database server. None of the
 * lists' plans uses workers; only counts that read the whole table (a filter without trigrams,
 * `.com`) would, taking every core of a small server from everyone else for their duration (the
 * abuse scenario: another user's p95 351 ms with the server's default of 2, 138 ms with 0).
 */
export const parallelWorkers = (): number => config().DATABASE_PARALLEL_WORKERS;
