import path from "node:path";

/** Where the data lives: a PostgreSQL server when DATABASE_URL names one, else embedded PGlite. */
export type DatabaseTarget =
  | { kind: "postgres"; url: string }
  | { kind: "pglite"; dir: string };

export function databaseTarget(env: NodeJS.ProcessEnv = process.env): DatabaseTarget {
  const url = env.DATABASE_URL?.trim();
  if (url) {
    if (!/^postgres(ql)?:\/\//.test(url)) {
      throw new Error(`DATABASE_URL must be a postgres:// or postgresql:// URL (got "${url.split(":")[0]}:…").`);
    }
    return { kind: "postgres", url };
  }
  return { kind: "pglite", dir: path.resolve(/*turbopackIgnore: true*/ env.PGLITE_DIR?.trim() || ".data/pglite") };
}

/**
 * DATABASE_STATEMENT_TIMEOUT_MS: the longest a statement of the console may run on a PostgreSQL
 * server (its connections' statement_timeout); 0 turns it off. Default 5000.
 */
export function statementTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.DATABASE_STATEMENT_TIMEOUT_MS?.trim();
  if (!raw) return DEFAULT_STATEMENT_TIMEOUT_MS;
  if (!/^\d+$/.test(raw)) throw new Error(`DATABASE_STATEMENT_TIMEOUT_MS must be a whole number of milliseconds (got "${raw}").`);
  return Number(raw);
}

export const DEFAULT_STATEMENT_TIMEOUT_MS = 5_000;

/**
 * DATABASE_PARALLEL_WORKERS: PostgreSQL's max_parallel_workers_per_gather on the console's
 * connections. Default 0: one request runs on one core of the database server. None of the
 * lists' plans uses workers; only counts that read the whole table (a filter without trigrams,
 * `.com`) would, taking every core of a small server from everyone else for their duration (the
 * abuse scenario: another user's p95 351 ms with the server's default of 2, 138 ms with 0).
 */
export function parallelWorkers(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.DATABASE_PARALLEL_WORKERS?.trim();
  if (!raw) return 0;
  if (!/^\d+$/.test(raw)) throw new Error(`DATABASE_PARALLEL_WORKERS must be a whole number (got "${raw}").`);
  return Number(raw);
}
