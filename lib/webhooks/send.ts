import http from "node:http";
import https from "node:https";
import { problem, readProblem, type ProblemKey } from "@/lib/i18n/problem";
import { guardedLookup, parseTarget, type Resolver } from "./target";

/** Why a request got no answer, as a problem key (the page says it in its reader's words): the console's own refusal as it is, a network error's text inside a sentence. */
const failure = (text: string) => (readProblem(text) ? text : problem("webhooks.attempt.failed", { reason: text.slice(0, 400) }));

/** Node's network and TLS error codes said in words, the code kept beside them; any other error keeps its own text. */
function networkKind(code: string): ProblemKey | null {
  if (code === "ECONNREFUSED") return "webhooks.attempt.connectionRefused";
  if (code === "ECONNRESET" || code === "EPIPE") return "webhooks.attempt.connectionClosed";
  if (["EHOSTUNREACH", "ENETUNREACH", "EHOSTDOWN", "ENETDOWN", "ETIMEDOUT"].includes(code)) return "webhooks.attempt.unreachable";
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/.test(code)) return "webhooks.attempt.certificate";
  if (code === "EPROTO" || code.startsWith("ERR_SSL_") || code.startsWith("ERR_TLS_")) return "webhooks.attempt.tls";
  if (code.startsWith("HPE_")) return "webhooks.attempt.notHttp";
  return null;
}

const networkFailure = (error: NodeJS.ErrnoException) => {
  const kind = typeof error.code === "string" && !readProblem(error.message) ? networkKind(error.code) : null;
  return kind ? problem(kind, { code: error.code! }) : failure(error.message || String(error));
};

// One POST to a receiver, bounded: 10 s in all (connecting, a receiver that never answers or trickles),
// 64 kB of the answer read and its first 1000 bytes kept, then the socket is destroyed. Redirects are
// not followed: a 3xx is a failed attempt. The socket connects only to an address target.ts accepted.

export const ATTEMPT_TIMEOUT_MS = 10_000;
export const READ_LIMIT_BYTES = 64 * 1024;
export const KEPT_BYTES = 1000;

export type Attempt = {
  delivered: boolean;
  /** The receiver's HTTP status; null when it never answered (refused target, timeout, network). */
  status: number | null;
  /** The answer's first bytes, or why there was none: a problem key (problems.webhooks.attempt, .refused). */
  body: string;
  durationMs: number;
};

export type SendOptions = { allowPrivate?: boolean; allowHttp?: boolean; resolve?: Resolver; timeoutMs?: number };

/** PostgreSQL's text holds no NUL; the kept bytes are for people to read. */
const readable = (bytes: Buffer) => bytes.subarray(0, KEPT_BYTES).toString("utf8").replace(/\u0000/g, "").slice(0, KEPT_BYTES);

export async function postWebhook(url: string, headers: Record<string, string>, body: string, options: SendOptions = {}): Promise<Attempt> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let target: URL;
  try {
    target = parseTarget(url, options);
  } catch (error) {
    return { delivered: false, status: null, body: failure((error as Error).message), durationMs: elapsed() };
  }
  const client = target.protocol === "https:" ? https : http;
  return new Promise<Attempt>((resolve) => {
    let settled = false;
    let answered: number | null = null;
    const finish = (status: number | null, text: string, complete = true) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve({ delivered: complete && status !== null && status >= 200 && status < 300, status, body: text, durationMs: elapsed() });
    };
    const request = client.request(target, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), "user-agent": "console-webhooks/1", ...headers },
      lookup: guardedLookup(options.allowPrivate, options.resolve),
      // A fresh connection each time: a kept-alive socket would skip the address check.
      agent: false,
    });
    const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
    // An answer still trickling in at the end fails too: its status is kept, for the page.
    const timer = setTimeout(() => finish(answered, problem("webhooks.attempt.timeout", { seconds: timeoutMs / 1000 }), false), timeoutMs);
    request.on("error", (error) => finish(null, networkFailure(error)));
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      let read = 0;
      const status = response.statusCode ?? null;
      answered = status;
      const done = () => finish(status, readable(Buffer.concat(chunks)));
      response.on("data", (chunk: Buffer) => {
        if (read < KEPT_BYTES) chunks.push(chunk.subarray(0, KEPT_BYTES - read));
        read += chunk.length;
        if (read >= READ_LIMIT_BYTES) done();
      });
      response.on("end", done);
      response.on("error", done);
      response.on("aborted", done);
    });
    request.end(body);
  });
}
