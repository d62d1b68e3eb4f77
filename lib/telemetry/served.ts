import type { IncomingMessage, ServerResponse } from "node:http";
import { log } from "./log";
import { countRequest } from "./metrics";
import type { RequestFacts } from "./request";

// The one line per request and its metrics, written by server.ts when the answer ends: the one
// place that knows the status, the time taken and the path (whose route pattern is the label).

/** 499 (nginx's "client closed request"): the client went away before the answer ended. */
const CLIENT_GONE = 499;

export function observeAnswer(req: IncomingMessage, res: ServerResponse, facts: RequestFacts, routeOf: (pathname: string) => string) {
  const started = performance.now();
  res.once("close", () => {
    const seconds = (performance.now() - started) / 1000;
    const status = res.writableFinished ? res.statusCode : CLIENT_GONE;
    const method = req.method ?? "GET";
    // The path only to find its pattern: the path and its query (filter values) are never logged.
    const url = req.url ?? "/";
    const end = url.search(/[?#]/);
    const route = routeOf(end === -1 ? url : url.slice(0, end));
    countRequest(route, method, status, seconds);
    log.info(
      {
        request_id: facts.id,
        method,
        route,
        status,
        duration_ms: Math.round(seconds * 10_000) / 10,
        user_id: facts.userId ?? null,
        token_id: facts.tokenId ?? null,
      },
      "request",
    );
  });
}
