// What logs and metrics add to one request, measured alone (docs/performance.md, "Logs and
// metrics"): the request's facts in the request scope, the route's pattern from the build's
// manifest, its JSON line on standard output and its counter and histogram. Run with standard
// output to a pipe or a file, as a server's is (the line is written synchronously):
//
//   npx tsx --conditions=react-server scripts/bench/telemetry-cost.ts [--requests 200000] [--dir .] > /dev/null
//
// Prints (on standard error) the time per request of the whole path, and of the same loop without it.
import { EventEmitter } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";
import { withQuerySignal } from "@/lib/db/scope";
import { REQUEST_ID_HEADER, requestIdFrom, withRequestFacts, noteCaller } from "@/lib/telemetry/request";
import { buildRoutes } from "@/lib/framework-gaps/routes";
import { observeAnswer } from "@/lib/telemetry/served";

const { values: args } = parseArgs({ options: { requests: { type: "string", default: "200000" }, dir: { type: "string", default: "." } } });
const requests = Number(args.requests);
const routeOf = buildRoutes(path.join(path.resolve(args.dir), ".next"));
// The paths a list's user sends most: the list with filters, a record, the API's list.
const URLS = ["/subscribers?q=mill&page=2", "/subscribers/123456", "/api/v1/subscribers?per_page=50", "/branches"];

/** A request and its answer as far as observeAnswer reads them. */
function fake(url: string) {
  const res = Object.assign(new EventEmitter(), { statusCode: 200, writableFinished: true });
  const req = { method: "GET", url, headers: { [REQUEST_ID_HEADER]: "bench-id-1" } };
  return { req: req as unknown as IncomingMessage, res: res as unknown as ServerResponse & EventEmitter };
}

async function run(observed: boolean): Promise<number> {
  const signal = new AbortController().signal;
  const started = process.hrtime.bigint();
  for (let i = 0; i < requests; i++) {
    const { req, res } = fake(URLS[i % URLS.length]!);
    if (observed) {
      const facts = { id: requestIdFrom(req.headers[REQUEST_ID_HEADER]) };
      observeAnswer(req, res, facts, routeOf);
      await withRequestFacts(facts, () => withQuerySignal(signal, async () => noteCaller(3)));
    } else {
      await withQuerySignal(signal, async () => {});
    }
    res.emit("close");
  }
  return Number(process.hrtime.bigint() - started) / 1e3 / requests; // µs per request
}

// Warm up both, then alternate.
await run(false);
await run(true);
const without: number[] = [];
const withIt: number[] = [];
for (let round = 0; round < 5; round++) {
  without.push(await run(false));
  withIt.push(await run(true));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
process.stderr.write(
  `per request (median of 5 rounds of ${requests}): without ${median(without).toFixed(2)} µs, with logs and metrics ${median(withIt).toFixed(2)} µs, ` +
    `added ${(median(withIt) - median(without)).toFixed(2)} µs\n`,
);
