// Whether an error means "the database server cannot be reached right now": answered 503 with
// Retry-After, as it goes away by itself (docs/decisions/0006-database-outage-sentinel.md). Not a
// busy pool (isDatabaseBusy). The shapes are in tests/unit/health-unavailable.test.ts. No Node APIs: the proxy uses it.

import { problem } from "@/lib/i18n/problem";

/** Prisma error codes that mean "no connection" (P1001 can't reach, P1017 closed…; not P2024, a pool wait). */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2037"]);

/** @prisma/driver-adapter-utils error kinds that mean the same. */
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);

/** Socket errors of Node. */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ECONNABORTED",
]);

/** SQLSTATEs: class 08 (connection exception), 57P01–57P03 shutdown or startup, 53300 too many connections. */
const isUnavailableSqlState = (code: string) => /^08[0-9A-Z]{3}$/.test(code) || ["57P01", "57P02", "57P03", "53300"].includes(code);

/** pg's own messages for a connection that died or never came (they carry no code). */
const MESSAGES = [
  /Connection terminated/i,
  /Client has encountered a connection error and is not queryable/i,
  /Can't reach database server/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
];

export type Inspectable = {
  code?: unknown;
  kind?: unknown;
  originalCode?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
  meta?: { driverAdapterError?: unknown };
};

function matches(value: Inspectable): boolean {
  const code = typeof value.code === "string" ? value.code : undefined;
  if (code && (PRISMA_CODES.has(code) || SOCKET_CODES.has(code) || isUnavailableSqlState(code))) return true;
  if (typeof value.originalCode === "string" && isUnavailableSqlState(value.originalCode)) return true;
  if (typeof value.kind === "string" && ADAPTER_KINDS.has(value.kind)) return true;
  return typeof value.message === "string" && MESSAGES.some((m) => m.test(value.message as string));
}

export const isDatabaseUnavailable = (error: unknown): boolean => someError(error, matches);

/** Whether `error` or anything it wraps (cause, Prisma's adapter error, an AggregateError's errors) satisfies `test`. */
export function someError(error: unknown, test: (value: Inspectable) => boolean): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0 && seen.size < 20) {
    const value = queue.shift();
    if (!value || typeof value !== "object" || seen.has(value)) continue;
    seen.add(value);
    const v = value as Inspectable;
    if (test(v)) return true;
    queue.push(v.cause, v.meta?.driverAdapterError);
    if (Array.isArray(v.errors)) queue.push(...v.errors);
  }
  return false;
}

/** Seconds a client should wait before trying again (the Retry-After of our 503s). */
export const RETRY_AFTER_SECONDS = 5;

export const UNAVAILABLE_MESSAGE = problem("db.unavailable");
