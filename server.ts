// The console's HTTP server: Next.js behind a thin front that owns what only the socket knows
// (docs/decisions/0008-own-http-server.md). Loaded with tsx's ESM hooks only: its CommonJS hook
// would put every require of Next's server through tsx's resolver.
import cluster from "node:cluster";
import fs from "node:fs";
import http from "node:http";
import type { Socket } from "node:net";
import path from "node:path";
import next from "next";
import { ConfigError, config, freezeConfig } from "@/lib/config";
import { withQuerySignal } from "@/lib/db/scope";
import { buildRoutes } from "@/lib/framework-gaps/routes";
import { apiAllowedMethods } from "@/lib/openapi/methods";
import { headersBefore } from "@/lib/security/headers";
import { prepareIncoming, proxiedPaths, unparsableRequestAnswer } from "@/lib/server/incoming";
import { superviseWebProcesses } from "@/lib/server/cluster";
import { isStopping, markStopping, runBeforeExit } from "@/lib/server/stopping";
import { SERVED_BY_CONSOLE } from "@/lib/server/startup";
import { webProcesses } from "@/lib/server/web-processes";
import { shareMetrics } from "@/lib/telemetry/cluster-metrics";
import { metrics } from "@/lib/telemetry/metrics";
import { log } from "@/lib/telemetry/log";
import { REQUEST_ID_HEADER, withRequestFacts } from "@/lib/telemetry/request";
import { observeAnswer } from "@/lib/telemetry/served";

const dev = process.argv.includes("--dev");
/** How much of a refused request's body is read (and thrown away) before the connection is cut. */
const DRAIN_LIMIT = 16 * 1024 * 1024;

/** The settings, or the process ends with what is wrong with them. */
function settingsOrExit(read: () => ReturnType<typeof config>) {
  try {
    return read();
  } catch (error) {
    if (!ConfigError.is(error)) throw error;
    log.fatal(`Refusing to start:\n${error.message}`);
    process.exit(1);
  }
}

const settings = settingsOrExit(config);
const processes = dev ? 1 : webProcesses(settings);
if (cluster.isPrimary && processes > 1) superviseWebProcesses(processes, settings.SHUTDOWN_TIMEOUT_SECONDS);
else await serve();

async function serve() {
  const { PORT: port, HOST: host, TRUST_PROXY: trustedProxyHops } = settings;
  // Each of several processes answers the supervisor's collection of metrics (lib/server/cluster.ts).
  if (cluster.isWorker) shareMetrics([metrics.registry]);

  process.env[SERVED_BY_CONSOLE] = "1";
  // COMPRESS for next.config.js, which Next loads below and which cannot import lib/config.ts (docs/decisions/0039-compression.md).
  process.env.CONSOLE_COMPRESS = settings.COMPRESS ? "1" : "";
  // Next's deployment id (next.config.js) is the id of the build served (docs/decisions/0044-expand-and-contract.md).
  if (!dev) process.env.NEXT_DEPLOYMENT_ID = fs.readFileSync(path.join(process.cwd(), ".next", "BUILD_ID"), "utf8").trim();
  const app = next({ dev, hostname: host || "localhost", port, ...(dev ? { turbopack: true } : {}) });
  const handle = app.getRequestHandler();
  await app.prepare();
  // Development keeps reading settings, as Next reloads its env files.
  if (!dev) settingsOrExit(freezeConfig);
  // Imported once Next has set up the runtime that next/server (in proxy.ts) needs.
  const goesThroughProxy = proxiedPaths((await import("./proxy")).config.matcher);
  // Route patterns for the logs and metrics, from the build Next serves (lib/framework-gaps/routes.ts).
  const routeOf = buildRoutes(path.join(process.cwd(), dev ? ".next/dev" : ".next"), { development: dev });
  // The API's methods by route, for the 405 of a method a route does not have (lib/openapi/methods.ts).
  const apiAllow = apiAllowedMethods();
  const apiAllowOf = (pathname: string) => apiAllow.get(routeOf(pathname));

  // The answers under way, which a stop tells to close their connection too, and every open
  // connection: one a client opened and never used is not one Node's close() ends (below).
  const answering = new Set<http.ServerResponse>();
  const connections = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const refused = prepareIncoming(req, trustedProxyHops, goesThroughProxy, apiAllowOf);
    // Chosen by prepareIncoming: the client's own id when it is a good one.
    const facts = { id: req.headers[REQUEST_ID_HEADER] as string };
    res.setHeader("X-Request-Id", facts.id);
    observeAnswer(req, res, facts, routeOf);
    answering.add(res);
    res.once("close", () => answering.delete(res));
    // A stopping instance closes each connection after its answer, so nothing new arrives on it.
    if (isStopping()) res.setHeader("Connection", "close");
    if (refused) {
      const answer = () => {
        if (!res.headersSent) res.writeHead(refused.status, refused.headers).end(refused.body);
      };
      // Answer once the body is drained: a client still sending when Node closes would see a reset.
      const declared = Number(req.headers["content-length"] ?? 0);
      if (!req.headers["transfer-encoding"] && !(declared > 0)) return answer();
      if (declared > DRAIN_LIMIT) {
        answer();
        return void req.resume();
      }
      let drained = 0;
      req.on("data", (chunk: Buffer) => {
        drained += chunk.length;
        if (drained > DRAIN_LIMIT) answer();
      });
      req.on("end", answer);
      req.on("error", () => {});
      return;
    }
    // Next's own answers get the headers too; the proxy gives pages theirs (docs/decisions/0020-policy-one-place-per-concern.md).
    for (const [name, value] of Object.entries(headersBefore(req.url ?? "/"))) res.setHeader(name, value);
    // A statement still running when the client goes away is cancelled (lib/db/scope.ts).
    const gone = new AbortController();
    res.once("close", () => {
      if (!res.writableFinished) gone.abort();
    });
    void withRequestFacts(facts, () => withQuerySignal(gone.signal, () => handle(req, res)));
  });
  // An idle kept-alive connection outlives the callers' own idle timeouts (nginx's upstream 60 s,
  // Node's agents 5 s): the caller closes it first, so none sends a request on a connection as this
  // end closes it, which resets the request (a POST behind nginx: a 502; docs/deployment.md).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  // A request Node cannot parse gets Node's answer with the security headers.
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    if (socket.writable && socket.bytesWritten === 0) {
      const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
      socket.end(unparsableRequestAnswer(status));
    } else {
      socket.destroy();
    }
  });
  if (dev) server.on("upgrade", app.getUpgradeHandler());
  server.on("connection", (socket: Socket) => {
    connections.add(socket);
    socket.once("close", () => connections.delete(socket));
  });

  server.listen(port, host || undefined, () => {
    const shown = host && host !== "0.0.0.0" && host !== "::" ? host : "localhost";
    log.info(`› Ready on http://${shown.includes(":") ? `[${shown}]` : shown}:${port}${dev ? " (development)" : ""}`);
  });

  // A graceful stop (docs/deployment.md, Upgrading): readiness answers 503 at once; the instance
  // goes on serving for SHUTDOWN_NOTICE_SECONDS (for a load balancer that checks readiness to
  // notice), then stops accepting connections and closes its idle ones; the requests it holds get
  // until SHUTDOWN_TIMEOUT_SECONDS from the signal to finish, then the rest are cut.
  const stop = (signal: string) => {
    if (isStopping()) return;
    markStopping();
    const { SHUTDOWN_TIMEOUT_SECONDS: timeout, SHUTDOWN_NOTICE_SECONDS: notice } = settings;
    log.info(`› ${signal}: stopping (readiness 503; ${notice} s notice, up to ${timeout} s in all)`);
    // The answers under way close their connection once sent: "Connection: close" where the head
    // is still to be written; where it is written, the connection is closed once idle, as close()
    // closes the idle ones only when called.
    for (const res of answering) {
      if (!res.headersSent) res.setHeader("Connection", "close");
      else res.once("finish", () => setImmediate(() => !server.listening && server.closeIdleConnections()));
    }
    // The in-process job worker stops taking jobs now and finishes or hands back the ones it holds.
    const jobs = runBeforeExit();
    const requests = new Promise<void>((resolve) => {
      // Node's close() also ends the idle keep-alive connections; busy ones end after their answer.
      // A connection opened and never used (a browser's preconnect, a client's spare) counts for
      // Node as one awaiting its first request, and would hold the stop for as long as the client
      // keeps it: it is ended too.
      setTimeout(() => {
        server.close(() => resolve());
        const busy = new Set([...answering].map((res) => res.socket));
        for (const socket of connections) if (!busy.has(socket)) socket.destroy();
      }, Math.min(notice, timeout) * 1000).unref();
    });
    const cut = setTimeout(() => {
      log.warn("› stopping: requests still running at SHUTDOWN_TIMEOUT_SECONDS are cut");
      server.closeAllConnections();
    }, timeout * 1000);
    cut.unref();
    void Promise.all([requests.then(() => clearTimeout(cut)), jobs])
      .then(() => app.close())
      .finally(() => {
        log.info("› stopped");
        process.exit(0);
      });
    // However the rest goes, the process ends a little after the timeout.
    setTimeout(() => process.exit(0), (timeout + 5) * 1000).unref();
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop(signal));
}
