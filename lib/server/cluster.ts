import cluster, { type Worker } from "node:cluster";
import client from "prom-client";
import { log } from "@/lib/telemetry/log";
import { METRICS_REQUEST, type MetricsReply } from "@/lib/telemetry/cluster-metrics";
import { WEB_SLOT } from "./web-processes";

// The supervisor of several web processes sharing one port (node:cluster): it serves nothing
// itself; it starts them, starts one again when it dies, stops them all on SIGTERM and adds up
// their metrics for /metrics (docs/decisions/0036-every-core.md).

/** A process that dies sooner than this after starting is crashing: the next start waits longer. */
const STEADY_MS = 10_000;
const MAX_RESTART_DELAY_MS = 30_000;
/** Past SHUTDOWN_TIMEOUT_SECONDS, how long a stopping process gets to exit before it is killed. */
const STOP_MARGIN_MS = 5_000;

/** Several processes; on SIGTERM each stops gracefully (server.ts) within `stopSeconds`. */
export function superviseWebProcesses(count: number, stopSeconds: number): void {
  const aggregator = new client.AggregatorRegistry();
  const slots = new Map<Worker, { slot: number; startedAt: number }>();
  const delays = new Map<number, number>();
  let stopping = false;

  const start = (slot: number) => {
    // Each knows its place: the first runs the jobs, each takes its share of the pool (web-processes.ts).
    const worker = cluster.fork({ [WEB_SLOT]: String(slot), WEB_CONCURRENCY: String(count) });
    slots.set(worker, { slot, startedAt: Date.now() });
  };

  cluster.on("exit", (worker, code, signal) => {
    const entry = slots.get(worker);
    slots.delete(worker);
    if (stopping) {
      if (slots.size === 0) process.exit(0);
      return;
    }
    if (!entry) return;
    const crashing = Date.now() - entry.startedAt < STEADY_MS;
    const delay = crashing ? Math.min(MAX_RESTART_DELAY_MS, Math.max(500, (delays.get(entry.slot) ?? 250) * 2)) : 500;
    delays.set(entry.slot, delay);
    log.error(`web process ${entry.slot} (pid ${worker.process.pid}) ended (${signal ?? `exit code ${code}`}): starting another in ${delay} ms`);
    setTimeout(() => !stopping && start(entry.slot), delay).unref();
  });

  cluster.on("message", (worker, message: unknown) => {
    if (!isMetricsRequest(message)) return;
    const reply = (answer: Omit<MetricsReply, "type" | "id">) => worker.isConnected() && worker.send({ type: METRICS_REQUEST, id: message.id, ...answer });
    aggregator.clusterMetrics().then(
      (body) => reply({ body, contentType: aggregator.contentType }),
      (error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }),
    );
  });

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      stopping = true;
      if (slots.size === 0) process.exit(0);
      for (const worker of slots.keys()) worker.process.kill("SIGTERM");
      setTimeout(() => {
        for (const worker of slots.keys()) worker.process.kill("SIGKILL");
        process.exit(0);
      }, stopSeconds * 1000 + STOP_MARGIN_MS).unref();
    });
  }

  log.info(`› Serving with ${count} processes (WEB_CONCURRENCY)`);
  for (let slot = 1; slot <= count; slot++) start(slot);
}

const isMetricsRequest = (message: unknown): message is { type: string; id: number } =>
  typeof message === "object" && message !== null && (message as { type?: unknown }).type === METRICS_REQUEST && typeof (message as { id?: unknown }).id === "number";
