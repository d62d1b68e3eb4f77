import { describe, expect, it } from "vitest";
import { isDatabaseBusy, isQueryCancelled, isQueryTimeout } from "@/lib/db/errors";
import { ClientGoneError } from "@/lib/db/scope";
import { isDatabaseUnavailable } from "@/lib/health/unavailable";

// Shapes recorded from PostgreSQL 15 stopped under @prisma/adapter-pg 7.10 and pg 8 (see
// tests/integration/outage.test.ts for the real thing).
const prismaError = (code: string, cause: object) =>
  Object.assign(new Error(`Invalid invocation: ${code}`), {
    name: "PrismaClientKnownRequestError",
    code,
    meta: { driverAdapterError: { name: "DriverAdapterError", cause } },
  });

describe("isDatabaseUnavailable", () => {
  it("recognises a stopped or stopping server", () => {
    const cases: unknown[] = [
      prismaError("P1001", { kind: "DatabaseNotReachable", host: "127.0.0.1", port: 5432 }),
      prismaError("P2010", { kind: "DatabaseNotReachable", host: "127.0.0.1", port: 5432 }),
      prismaError("P2039", { kind: "postgres", code: "57P01", originalCode: "57P01", message: "terminating connection due to administrator command" }),
      prismaError("P2010", { kind: "ConnectionClosed" }),
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
      new Error("Connection terminated unexpectedly"),
      new Error("Connection terminated due to connection timeout"),
      Object.assign(new Error("the database system is shutting down"), { code: "57P03" }),
      Object.assign(new Error("server closed"), { code: "08006" }),
      new Error("wrapped", { cause: Object.assign(new Error("x"), { code: "ECONNRESET" }) }),
      new AggregateError([new Error("other"), Object.assign(new Error("y"), { code: "ETIMEDOUT" })]),
    ];
    for (const error of cases) expect(isDatabaseUnavailable(error), String((error as Error).message)).toBe(true);
  });

  // Issue 19: a pool whose every connection is busy made one user's burst look like an outage
  // ("database unavailable") to everyone else. pg-pool raises this message only for a wait in
  // its queue (a connection attempt that times out says "Connection terminated due to connection timeout").
  it("calls a wait for a pooled connection busy, not an outage", () => {
    const cases: unknown[] = [
      new Error("timeout exceeded when trying to connect"),
      { code: "P2024", message: "Timed out fetching a new connection from the connection pool." },
    ];
    for (const error of cases) {
      expect(isDatabaseUnavailable(error), String((error as Error).message)).toBe(false);
      expect(isDatabaseBusy(error), String((error as Error).message)).toBe(true);
    }
  });

  it("tells a statement timeout from a cancelled statement, and neither is an outage", () => {
    const timeout = prismaError("P2010", { kind: "postgres", code: "57014", originalCode: "57014", message: "canceling statement due to statement timeout" });
    const cancelled = prismaError("P2010", { kind: "postgres", code: "57014", originalCode: "57014", message: "canceling statement due to user request" });
    expect([isQueryTimeout(timeout), isQueryCancelled(timeout), isDatabaseUnavailable(timeout)]).toEqual([true, false, false]);
    expect([isQueryTimeout(cancelled), isQueryCancelled(cancelled), isDatabaseUnavailable(cancelled)]).toEqual([false, true, false]);
    expect(isQueryCancelled(new ClientGoneError())).toBe(true);
  });

  it("leaves bugs, bad input and constraint errors alone", () => {
    const cases: unknown[] = [
      new Error("Cannot read properties of undefined"),
      prismaError("P2002", { kind: "UniqueConstraintViolation" }),
      prismaError("P2010", { kind: "postgres", code: "42P01", originalCode: "42P01", message: 'relation "x" does not exist' }),
      Object.assign(new Error("syntax error"), { code: "42601" }),
      Object.assign(new Error("password authentication failed"), { code: "28P01" }),
      null,
      undefined,
      "ECONNREFUSED",
    ];
    for (const error of cases) expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it("does not loop on a cause cycle", () => {
    const a = new Error("a") as Error & { cause?: unknown };
    const b = new Error("b", { cause: a });
    a.cause = b;
    expect(isDatabaseUnavailable(a)).toBe(false);
  });
});
