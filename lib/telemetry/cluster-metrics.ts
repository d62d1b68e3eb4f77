import cluster from "node:cluster";
import client from "prom-client";

// /metrics of a server of several processes: the process a scrape reaches asks the supervisor
// (lib/server/cluster.ts), which adds up every process's registry with prom-client's own
// AggregatorRegistry (docs/decisions/0036-every-core.md).

export const METRICS_REQUEST = "console:metrics";
export type MetricsReply = { type: typeof METRICS_REQUEST; id: number } & ({ body: string; contentType: string } | { error: string });

const REPLY_TIMEOUT_MS = 8_000;
let nextId = 0;

/** Whether this process is one of several web processes (its metrics are the supervisor's to add up). */
export const inCluster = (): boolean => cluster.isWorker && typeof process.send === "function";

/** Answers the supervisor's collection with these registries (prom-client listens once constructed). */
export function shareMetrics(registries: client.Registry[]): void {
  client.AggregatorRegistry.setRegistries(registries);
  new client.AggregatorRegistry();
}

/** Every process's metrics added up, from the supervisor. */
export function clusterMetrics(): Promise<{ body: string; contentType: string }> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      const reply = message as Partial<MetricsReply> | null;
      if (reply?.type !== METRICS_REQUEST || reply.id !== id) return;
      done();
      if ("error" in reply && reply.error !== undefined) reject(new Error(`the other processes' metrics: ${reply.error}`));
      else resolve(reply as { body: string; contentType: string });
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error("the other processes' metrics did not come in time"));
    }, REPLY_TIMEOUT_MS);
    const done = () => {
      clearTimeout(timer);
      process.off("message", onMessage);
    };
    process.on("message", onMessage);
    process.send!({ type: METRICS_REQUEST, id });
  });
}
