import type { IncomingHttpHeaders } from "node:http";
import { SIGN_IN_BODY_LIMIT } from "@/lib/auth/sign-in-body";
import { isReadableRouterState } from "@/lib/framework-gaps/router-state";
import { INTL_TAG } from "@/lib/i18n/locales";
import { fromAcceptLanguage } from "@/lib/i18n/negotiate";
import { problem } from "@/lib/i18n/problem";
import { problemsIn } from "@/lib/i18n/problems-in";
import { securityHeaders } from "@/lib/security/headers";
import { REQUEST_ID_HEADER, requestIdFrom } from "@/lib/telemetry/request";
import { CLIENT_ADDRESS_HEADER, resolveClientAddress } from "./client-address";

// What server.ts does before Next.js sees a request: facts only the socket knows replace what the
// client claimed; requests no part of the console may answer are refused (docs/decisions/0008-own-http-server.md).

/** Largest body of a page POST (a server action): Next's own limit, set in next.config.js. */
export const SERVER_ACTION_BODY_LIMIT = 1024 * 1024;

/** Headers a client could write to pose as a proxy; without a trusted proxy they are dropped. */
const PROXY_HEADERS = ["x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-forwarded-port", "x-real-ip", "forwarded"];

/** Methods no route of the console answers; TRACE would echo the request, cookies included. */
const REFUSED_METHODS = new Set(["TRACE", "TRACK", "CONNECT"]);

/** What the paths behind the proxy answer: pages, server actions, next-auth's routes. */
const PROXIED_METHODS = new Set(["GET", "HEAD", "POST"]);

/** Whether a path goes through the proxy, from proxy.ts's own matcher, matched as Next does: whole, case-sensitive. */
export function proxiedPaths(matcher: readonly string[]): (pathname: string) => boolean {
  const proxied = new RegExp(`^(?:${matcher.join("|")})$`);
  return (pathname) => proxied.test(pathname);
}

export function proxiedBodyLimit(pathname: string): number {
  return pathname.startsWith("/api/auth/") ? SIGN_IN_BODY_LIMIT : SERVER_ACTION_BODY_LIMIT;
}

export type Incoming = {
  method?: string;
  url?: string;
  headers: IncomingHttpHeaders;
  socket: { remoteAddress?: string; encrypted?: boolean };
};

type Refusal = { status: number; headers: Record<string, string>; body: string };

function refusal(requestId: string, status: number, code: string, message: string, extra: Record<string, string> = {}): Refusal {
  const body = JSON.stringify({ error: { code, message, request_id: requestId } });
  return {
    status,
    headers: { ...securityHeaders("api"), "Content-Type": "application/json", "X-Request-Id": requestId, ...extra },
    body,
  };
}

/** Node's own answer to an unparsable request, with our headers; no body, as it may have been a HEAD. */
export function unparsableRequestAnswer(status: 400 | 408 | 431): string {
  const reasons = { 400: "Bad Request", 408: "Request Timeout", 431: "Request Header Fields Too Large" };
  const headers = { ...securityHeaders("api"), "Content-Length": "0", Connection: "close" };
  return `HTTP/1.1 ${status} ${reasons[status]}\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join("\r\n")}\r\n\r\n`;
}

/** Whether the path's percent-escapes decode as UTF-8 (Next would answer 500). */
function decodablePath(url: string): boolean {
  const end = url.search(/[?#]/);
  try {
    decodeURIComponent(end === -1 ? url : url.slice(0, end));
    return true;
  } catch {
    return false;
  }
}

/**
 * Sets the caller's address and the request's id (the client's own when it is a good one), drops
 * client-written proxy headers unless a proxy is trusted; a refusal when the request must not reach Next.
 * `apiAllow` gives an /api/v1 path's Allow (lib/openapi/methods.ts), undefined for a path no operation has.
 */
export function prepareIncoming(
  req: Incoming,
  trustedProxyHops: number,
  goesThroughProxy: (pathname: string) => boolean,
  apiAllow: (pathname: string) => string | undefined = () => undefined,
): Refusal | null {
  const requestId = requestIdFrom(req.headers[REQUEST_ID_HEADER]);
  // A refusal's words follow Accept-Language, else English, as the API's do (lib/http/api.ts).
  const locale = fromAcceptLanguage(req.headers["accept-language"]) ?? "en";
  const words = problemsIn(locale);
  req.headers[REQUEST_ID_HEADER] = requestId;
  const address = resolveClientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"], trustedProxyHops);
  if (trustedProxyHops <= 0) {
    for (const name of PROXY_HEADERS) delete req.headers[name];
    // What Next would have set from the socket itself.
    req.headers["x-forwarded-for"] = address;
    req.headers["x-forwarded-proto"] = req.socket.encrypted ? "https" : "http";
  }
  req.headers[CLIENT_ADDRESS_HEADER] = address;

  const method = (req.method ?? "GET").toUpperCase();
  if (REFUSED_METHODS.has(method)) return refusal(requestId, 405, "method_not_allowed", words(problem("http.methodNotAllowed", { method })), { Allow: "GET, HEAD, POST, PATCH, DELETE" });

  // Requests Next.js would answer with a 500: refused with a 4xx here.
  if (!decodablePath(req.url ?? "/")) return refusal(requestId, 400, "bad_path", words(problem("http.badPath")));
  if (!isReadableRouterState(req.headers["next-router-state-tree"])) {
    return refusal(requestId, 400, "bad_router_state", words(problem("http.badRouterState")));
  }

  const pathname = (req.url ?? "/").split(/[?#]/)[0]!;
  // A method an API route does not have: the API's error shape and Allow, where Next has neither.
  if (pathname.startsWith("/api/v1/") && method !== "OPTIONS") {
    const allow = apiAllow(pathname);
    if (allow !== undefined && !allow.split(", ").includes(method)) {
      return refusal(requestId, 405, "method_not_allowed", words(problem("http.methodNotAllowedUse", { method, allowed: new Intl.ListFormat(INTL_TAG[locale], { type: "disjunction" }).format(allow.split(", ")) })), { Allow: allow });
    }
  }

  // Behind the proxy Next reads a body whole before anything can refuse it, so a POST is refused
  // here by its declared length. The JSON API and the health check limit their own.
  if (goesThroughProxy(pathname)) {
    if (!PROXIED_METHODS.has(method)) return refusal(requestId, 405, "method_not_allowed", words(problem("http.methodNotAllowedHere", { method })), { Allow: "GET, HEAD, POST" });
    if (method === "POST") {
      const declared = req.headers["content-length"];
      if (declared === undefined) {
        if (req.headers["transfer-encoding"]) return refusal(requestId, 411, "length_required", words(problem("http.lengthRequired")));
      } else if (!/^\d+$/.test(declared) || Number(declared) > proxiedBodyLimit(pathname)) {
        return refusal(requestId, 413, "too_large", words(problem("http.formTooLarge")));
      }
    }
  }
  return null;
}
