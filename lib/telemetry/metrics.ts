import type pg from "pg";
import client from "prom-client";
import { processWide } from "@/lib/process-wide";

// The process's Prometheus metrics (docs/deployment.md, "Metrics"): each process, web or worker,
// counts its own; Prometheus adds them up. Labels are bounded: a route's pattern, never its path
// (lib/framework-gaps/routes.ts); a method from a fixed list; a status code (docs/decisions/0026-logs-and-metrics.md).

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

function makeMetrics() {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const pools = new Map<pg.Pool, string>();
  return {
    registry,
    pools,
    requests: new client.Counter({
      name: "console_http_requests_total",
      help: "HTTP requests answered, by route pattern, method and status.",
      labelNames: ["route", "method", "status"] as const,
      registers,
    }),
    requestSeconds: new client.Histogram({
      name: "console_http_request_duration_seconds",
      help: "Time from a request's arrival to the end of its answer, by route pattern and method.",
      labelNames: ["route", "method"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    poolConnections: new client.Gauge({
      name: "console_db_pool_connections",
      help: "Connections of the process's PostgreSQL pools: in use, idle, and requests waiting for one.",
      labelNames: ["pool", "state"] as const,
      registers,
      collect() {
        this.reset();
        for (const [pool, name] of pools) {
          if (pool.ended) {
            pools.delete(pool);
            continue;
          }
          this.inc({ pool: name, state: "in_use" }, pool.totalCount - pool.idleCount);
          this.inc({ pool: name, state: "idle" }, pool.idleCount);
          this.inc({ pool: name, state: "waiting" }, pool.waitingCount);
        }
      },
    }),
    jobs: new client.Gauge({
      name: "console_jobs",
      help: "Jobs in the database's queues by queue and state (the same in every process: take one, not the sum).",
      labelNames: ["queue", "state"] as const,
      // Counted by the process a scrape reaches, so not added up across a server's processes (scrape.ts).
      aggregator: "omit",
      registers,
    }),
    jobSeconds: new client.Histogram({
      name: "console_job_duration_seconds",
      help: "Attempts at exports, imports and bulk changes run by this process, by kind and outcome.",
      labelNames: ["kind", "outcome"] as const,
      buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
      registers,
    }),
  };
}

/** Process-wide: server.ts counts the requests, the app's layers the rest, into one registry. */
export const metrics = processWide("telemetry.metrics", makeMetrics);

/** Counts one answered request (server.ts). */
export function countRequest(route: string, method: string, status: number, seconds: number) {
  const m = METHODS.has(method) ? method : "OTHER";
  metrics.requests.inc({ route, method: m, status: String(status) });
  metrics.requestSeconds.observe({ route, method: m }, seconds);
}

/** A pool whose connections the metrics show (lib/db/pool.ts), until it ends. */
export function watchPool(pool: pg.Pool, name: string) {
  metrics.pools.set(pool, name);
}
