import { config } from "@/lib/config";

/** Where the data lives: a PostgreSQL server when DATABASE_URL names one, else embedded PGlite. */
export type DatabaseTarget =
  | { kind: "postgres"; url: string }
  | { kind: "pglite"; dir: string };

export function databaseTarget(): DatabaseTarget {
  const { DATABASE_URL: url, PGLITE_DIR: dir } = config();
  return url ? { kind: "postgres", url } : { kind: "pglite", dir };
}

/** DATABASE_STATEMENT_TIMEOUT_MS: statement_timeout of the console's PostgreSQL connections (0: off). */
export const statementTimeoutMs = (): number => config().DATABASE_STATEMENT_TIMEOUT_MS;

/**
 * DATABASE_PARALLEL_WORKERS: max_parallel_workers_per_gather (default 0, one core per request):
 * only whole-table counts would use workers, taking a small server's cores from everyone (bench/README.md).
 */
export const parallelWorkers = (): number => config().DATABASE_PARALLEL_WORKERS;
