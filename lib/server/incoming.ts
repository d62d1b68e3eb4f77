import type { IncomingHttpHeaders } from "node:http";
import HEADERS from "@/lib/security/static-headers.json";
import { CLIENT_ADDRESS_HEADER, resolveClientAddress } from "./client-address";

// What the console's HTTP server (server.ts) does with a request before Next.js sees it: the
// facts only the socket knows replace whatever the client claimed, and the few requests no part
// of the console may answer are refused here. Kept apart from server.ts to be tested alone.

/** Largest body of a page POST (a server action): Next's own limit, set in next.config.js. */
export const SERVER_ACTION_BODY_LIMIT = 1024 * 1024;

/** Headers a client could write to pose as a proxy; without a trusted proxy they are dropped. */
const PROXY_HEADERS = ["x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-forwarded-port", "x-real-ip", "forwarded"];

/** Methods no route of the console answers; TRACE would echo the request, cookies included. */
const REFUSED_METHODS = new Set(["TRACE", "TRACK", "CONNECT"]);

export type Incoming = {
  method?: string;
  url?: string;
  headers: IncomingHttpHeaders;
  socket: { remoteAddress?: string; encrypted?: boolean };
};

export type Refusal = { status: number; headers: Record<string, string>; body: string };

function refusal(status: number, code: string, message: string, extra: Record<string, string> = {}): Refusal {
  const body = JSON.stringify({ error: { code, message } });
  return {
    status,
    headers: {
      ...HEADERS.base,
      ...(process.env.NODE_ENV === "production" ? { "Strict-Transport-Security": HEADERS.hsts } : {}),
      "Content-Security-Policy": HEADERS.apiCsp,
      "Cache-Control": "no-store",
      "Content-Type": "application/json",
      ...extra,
    },
    body,
  };
}

/**
 * Rewrites the request's headers in place (the caller's address, and no client-written proxy
 * headers unless a proxy is trusted) and returns a refusal when the request must not reach Next.
 */
export function prepareIncoming(req: Incoming, trustedProxyHops: number): Refusal | null {
  const address = resolveClientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"], trustedProxyHops);
  if (trustedProxyHops <= 0) {
    for (const name of PROXY_HEADERS) delete req.headers[name];
    // What Next would have set from the socket itself.
    req.headers["x-forwarded-for"] = address;
    req.headers["x-forwarded-proto"] = req.socket.encrypted ? "https" : "http";
  }
  req.headers[CLIENT_ADDRESS_HEADER] = address;

  const method = (req.method ?? "GET").toUpperCase();
  if (REFUSED_METHODS.has(method)) return refusal(405, "method_not_allowed", `${method} is not allowed.`, { Allow: "GET, HEAD, POST, PATCH, DELETE" });

  // A page POST is a server action, whose body Next reads whole and refuses past its limit with
  // a 500: refuse it here from its declared length instead (browsers always declare it).
  const path = req.url ?? "/";
  if (method === "POST" && !path.startsWith("/api/")) {
    const declared = req.headers["content-length"];
    if (declared === undefined) {
      if (req.headers["transfer-encoding"]) return refusal(411, "length_required", "Send the form with a Content-Length.");
    } else if (!/^\d+$/.test(declared) || Number(declared) > SERVER_ACTION_BODY_LIMIT) {
      return refusal(413, "too_large", "The form is too large.");
    }
  }
  return null;
}
