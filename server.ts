// The console's HTTP server: Next.js behind a thin front that owns what only the socket knows.
// `npm run serve` (production build) and `npm run dev` (`--dev`) start it; `next start` alone
// would let a client's X-Forwarded-For name the caller (lib/server/incoming.ts says why not).
// Loaded with tsx's ESM hooks only (`--import tsx/esm`): this file and what it imports are ES
// modules, while Next's server requires its own modules through CommonJS as it serves, and with
// tsx's CommonJS hook in place every such require went through tsx's resolver too (about 20 µs of
// each /subscribers request).
import http from "node:http";
import type { Socket } from "node:net";
import next from "next";
import { ConfigError, config, fixConfig } from "@/lib/config";
import { withQuerySignal } from "@/lib/db/scope";
import { headersBefore } from "@/lib/security/headers";
import { prepareIncoming, proxiedPaths, unparsableRequestAnswer } from "@/lib/server/incoming";
import { SERVED_BY_CONSOLE } from "@/lib/server/startup";

const dev = process.argv.includes("--dev");
// tsx (which loads this file) turns Node's source maps on: every error stack formatted then looks
// up Next's server bundles' maps, and a request formats several (lib/process-wide.ts reads
// the stack of every abort reason). A served build runs without them, as `next start` does.
if (!dev) process.setSourceMapsEnabled(false);
/** How much of a refused request's body is read (and thrown away) before the connection is cut. */
const DRAIN_LIMIT = 16 * 1024 * 1024;

/** The settings, or the process ends with what is wrong with them. */
function settingsOrExit(read: () => ReturnType<typeof config>) {
  try {
    return read();
  } catch (error) {
    if (!ConfigError.is(error)) throw error;
    console.error(`Refusing to start:\n${error.message}`);
    process.exit(1);
  }
}

const settings = settingsOrExit(config);
const { PORT: port, HOST: host, TRUST_PROXY: trustedProxyHops } = settings;

process.env[SERVED_BY_CONSOLE] = "1";
const app = next({ dev, hostname: host || "localhost", port, ...(dev ? { turbopack: true } : {}) });
const handle = app.getRequestHandler();
await app.prepare();
// From here a served build's settings are the process's for good (a page reads them for every
// date it shows); development keeps reading them, as Next reloads its env files.
if (!dev) settingsOrExit(fixConfig);
// The paths behind the proxy, from its own matcher; imported once Next has set up the runtime
// that next/server (which proxy.ts imports) needs.
const goesThroughProxy = proxiedPaths((await import("./proxy")).config.matcher);

const server = http.createServer((req, res) => {
  const refused = prepareIncoming(req, trustedProxyHops, goesThroughProxy);
  if (refused) {
    const answer = () => {
      if (!res.headersSent) res.writeHead(refused.status, refused.headers).end(refused.body);
    };
    // Answer once the body is in (read and thrown away, never kept), so that every client reads
    // the answer: Node closes a connection whose request is unfinished when its answer ends, and
    // a client still sending then sees a reset instead. A body past a few megabytes is not waited
    // for: it gets its answer at once, and the connection closes.
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
  // Every answer starts with a non-page answer's security headers, Next's own answers included
  // (its 404s and 405s, its redirect of `//x`); the proxy gives pages theirs.
  for (const [name, value] of Object.entries(headersBefore(req.url ?? "/"))) res.setHeader(name, value);
  // Pages, actions and route handlers alike: a statement still running when the client goes away
  // (the response closed before it finished) is cancelled in PostgreSQL (lib/db/scope.ts).
  const gone = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) gone.abort();
  });
  void withQuerySignal(gone.signal, () => handle(req, res));
});
// A request Node cannot parse (a header too large, a broken request line) gets Node's answer
// with the security headers instead of a bare status line.
server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
  if (socket.writable && socket.bytesWritten === 0) {
    const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
    socket.end(unparsableRequestAnswer(status));
  } else {
    socket.destroy();
  }
});
if (dev) server.on("upgrade", app.getUpgradeHandler());

server.listen(port, host || undefined, () => {
  const shown = host && host !== "0.0.0.0" && host !== "::" ? host : "localhost";
  console.log(`› Ready on http://${shown.includes(":") ? `[${shown}]` : shown}:${port}${dev ? " (development)" : ""}`);
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    server.close();
    void app.close().finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 5_000).unref();
  });
}
