// The console's HTTP server: Next.js behind a thin front that owns what only the socket knows.
// `npm run serve` (production build) and `npm run dev` (`--dev`) start it; `next start` alone
// would let a client's X-Forwarded-For name the caller (lib/server/incoming.ts says why not).
import http from "node:http";
import type { Socket } from "node:net";
import next from "next";
import { ConfigError, serverEnv } from "@/lib/env";
import { baselineHeadersFor, prepareIncoming, unparsableRequestAnswer } from "@/lib/server/incoming";
import { SERVED_BY_CONSOLE } from "@/lib/server/startup";

const dev = process.argv.includes("--dev");

let settings;
try {
  settings = serverEnv();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`Refusing to start:\n${error.message}`);
  process.exit(1);
}
const { PORT: port, HOST: host, TRUST_PROXY: trustedProxyHops } = settings;

process.env[SERVED_BY_CONSOLE] = "1";
const app = next({ dev, hostname: host || "localhost", port, ...(dev ? { turbopack: true } : {}) });
const handle = app.getRequestHandler();
await app.prepare();

const server = http.createServer((req, res) => {
  const refused = prepareIncoming(req, trustedProxyHops);
  if (refused) {
    res.writeHead(refused.status, refused.headers).end(refused.body);
    return;
  }
  // Every answer starts with the security headers; the proxy, next.config.js and route handlers
  // replace the ones that differ (a page's policy with its nonce).
  for (const [name, value] of baselineHeadersFor(req.url ?? "/")) res.setHeader(name, value);
  void handle(req, res);
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
