import http from "node:http";
import { config } from "@/lib/config";
import { log } from "./log";
import { scrapeMetrics } from "./scrape";

// The separate job worker (scripts/worker.ts) serves no pages: with METRICS_PORT set it answers
// GET /metrics on that port alone, as the web server does, so Prometheus scrapes it too.

export function serveWorkerMetrics(): http.Server | null {
  const { METRICS_PORT: port, HOST: host } = config();
  if (!port) return null;
  const server = http.createServer((req, res) => {
    if (req.method !== "GET" || (req.url ?? "/").split("?")[0] !== "/metrics") return void res.writeHead(404).end();
    scrapeMetrics(req.headers.authorization).then(
      (scrape) => {
        if (scrape.status === 200) res.writeHead(200, { "Content-Type": scrape.contentType }).end(scrape.body);
        else res.writeHead(scrape.status, scrape.status === 401 ? { "WWW-Authenticate": 'Bearer realm="metrics"' } : {}).end();
      },
      () => res.writeHead(500).end(),
    );
  });
  server.listen(port, host || undefined, () => log.info(`job worker: metrics on port ${port}`));
  return server;
}
