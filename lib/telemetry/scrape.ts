import crypto from "node:crypto";
import { config } from "@/lib/config";
import { outsideRequest } from "@/lib/db/scope";
import { countJobs } from "@/lib/jobs/queue";
import { clusterMetrics, inCluster } from "./cluster-metrics";
import { log } from "./log";
import { metrics } from "./metrics";

// GET /metrics, for the web server's route (app/metrics/route.ts) and the separate worker's own
// listener (scripts/worker.ts): 404 while METRICS_TOKEN is unset, 401 without it. A server of
// several processes answers for all of them.

/** A scrape that waits longer for the job counts answers without them. */
const JOB_COUNT_TIMEOUT_MS = 2_000;

const digest = (value: string) => crypto.createHash("sha256").update(value, "utf8").digest();

export type Scrape = { status: 200; contentType: string; body: string } | { status: 401 | 404 };

async function refreshJobCounts() {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const giveUp = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("timed out")), JOB_COUNT_TIMEOUT_MS)));
  try {
    // Not the scrape's statement: one that outlives a gone scraper finishes on its own.
    const rows = await Promise.race([outsideRequest(countJobs), giveUp]);
    metrics.jobs.reset();
    for (const { queue, state, n } of rows) metrics.jobs.set({ queue, state }, n);
  } catch (error) {
    // The database is away: the other metrics still answer, and say so through the pool's.
    metrics.jobs.reset();
    log.debug({ err: error }, "metrics: jobs not counted");
  } finally {
    clearTimeout(timer);
  }
}

/** The metrics in Prometheus's text format, for the holder of METRICS_TOKEN (compared in constant time). */
export async function scrapeMetrics(authorization: string | null | undefined): Promise<Scrape> {
  const expected = config().METRICS_TOKEN;
  if (!expected) return { status: 404 };
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  if (!match || !crypto.timingSafeEqual(digest(match[1]!), digest(expected))) return { status: 401 };
  await refreshJobCounts();
  if (inCluster()) {
    const all = await clusterMetrics();
    return { status: 200, contentType: all.contentType, body: `${all.body.trimEnd()}\n${await metrics.registry.getSingleMetricAsString("console_jobs")}\n` };
  }
  return { status: 200, contentType: metrics.registry.contentType, body: await metrics.registry.metrics() };
}
