import { AppError } from "@/lib/errors";
import { problem } from "@/lib/i18n/problem";
import { someError, type Inspectable } from "@/lib/health/unavailable";
import { isRetryable } from "./retry";
import { ClientGoneError } from "./scope";

// Database failures that are neither an outage nor a bug: statement timeouts, a pool wait that
// timed out (this process is busy, the server is up), statements stopped because the client went
// away, and the rules the database itself keeps (the last active administrator).

const sqlState = (v: Inspectable) =>
  typeof v.code === "string" ? v.code : typeof v.originalCode === "string" ? v.originalCode : undefined;
const text = (v: Inspectable) => (typeof v.message === "string" ? v.message : "");

export function isQueryTimeout(error: unknown): boolean {
  return someError(error, (v) => sqlState(v) === "57014" && /statement timeout/i.test(text(v)));
}

/** A lock not granted within `lock_timeout` (SQLSTATE 55P03). */
export const isLockTimeout = (error: unknown): boolean => someError(error, (v) => sqlState(v) === "55P03");

export function isDatabaseBusy(error: unknown): boolean {
  return someError(error, (v) => v.code === "P2024" || /timeout exceeded when trying to connect/i.test(text(v)));
}

export function isQueryCancelled(error: unknown): boolean {
  return (
    ClientGoneError.is(error) ||
    someError(error, (v) => ClientGoneError.is(v) || (sqlState(v) === "57014" && /user request/i.test(text(v))))
  );
}

/** SQLSTATE of the users trigger that keeps an active administrator (migration 20261129000100_one_active_admin). */
const LAST_ADMIN_SQLSTATE = "CA001";

/** A change refused because it would leave no active administrator. */
export const isLastAdmin = (error: unknown): boolean => someError(error, (v) => sqlState(v) === LAST_ADMIN_SQLSTATE);

export const LAST_ADMIN_MESSAGE = problem("db.lastAdmin");

/** Seconds a client should wait after a busy or timed-out answer. */
const BUSY_RETRY_AFTER_SECONDS = 2;

/** The answer a request gets for one of these failures, or null for any other error. */
export function databaseAppError(error: unknown): AppError | null {
  if (isQueryTimeout(error)) {
    return new AppError(503, "query_timeout", problem("db.queryTimeout"), undefined, BUSY_RETRY_AFTER_SECONDS);
  }
  if (isLastAdmin(error)) return new AppError(422, "last_admin", LAST_ADMIN_MESSAGE);
  // Still deadlocked after the transaction's own retries (lib/db/retry.ts): busy, not broken.
  if (isRetryable(error)) {
    return new AppError(503, "busy", problem("db.conflictingChanges"), undefined, BUSY_RETRY_AFTER_SECONDS);
  }
  if (isDatabaseBusy(error)) {
    return new AppError(503, "busy", problem("db.busy"), undefined, BUSY_RETRY_AFTER_SECONDS);
  }
  return null;
}

/** A unique index refused the row (SQLSTATE 23505, or Prisma's P2002). */
export const isUniqueViolation = (error: unknown): boolean => someError(error, (v) => sqlState(v) === "23505" || v.code === "P2002");
