import { Writable } from "node:stream";
import pino from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jobProgress, withJobLog } from "@/lib/jobs/progress";
import { log, REDACTED_PATHS } from "@/lib/telemetry/log";
import { requestIdFrom } from "@/lib/telemetry/request";
import { routeMatcher, UNMATCHED_ROUTE, type RoutesManifest } from "@/lib/framework-gaps/routes";
import { scrapeMetrics } from "@/lib/telemetry/scrape";

describe("requestIdFrom", () => {
  it("keeps a client's id of 1–128 letters, digits, dots, underscores and hyphens", () => {
    for (const id of ["a", "Trace_1.2-3", "x".repeat(128), "0af7651916cd43dd8448eb211c80319c"]) expect(requestIdFrom(id)).toBe(id);
  });

  it("makes a new one for anything else", () => {
    for (const given of [undefined, "", "x".repeat(129), "has space", "a\nb", "ünï", "semi;colon", "quo\"te", ["a", "b"]]) {
      const id = requestIdFrom(given);
      expect(id, JSON.stringify(given)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
    expect(requestIdFrom(undefined)).not.toBe(requestIdFrom(undefined));
  });
});

// The shape Next 16 writes to .next/routes-manifest.json (trimmed).
const MANIFEST: RoutesManifest = {
  staticRoutes: [
    { page: "/", regex: "^/(?:/)?$" },
    { page: "/subscribers", regex: "^/subscribers(?:/)?$" },
    { page: "/api/v1/subscribers/export", regex: "^/api/v1/subscribers/export(?:/)?$" },
  ],
  dynamicRoutes: [
    { page: "/api/auth/[...nextauth]", regex: "^/api/auth/(.+?)(?:/)?$" },
    { page: "/api/v1/subscribers/imports/[id]", regex: "^/api/v1/subscribers/imports/([^/]+?)(?:/)?$" },
    { page: "/api/v1/subscribers/[id]", regex: "^/api/v1/subscribers/([^/]+?)(?:/)?$" },
    { page: "/api/v1/[...path]", regex: "^/api/v1/(.+?)(?:/)?$" },
    { page: "/set-password/[token]", regex: "^/set-password/([^/]+?)(?:/)?$" },
    { page: "/subscribers/[id]", regex: "^/subscribers/([^/]+?)(?:/)?$" },
  ],
};

describe("routeMatcher", () => {
  const routeOf = routeMatcher(MANIFEST);

  it("names a path by its route's pattern, static routes before dynamic ones, specific before catch-all", () => {
    expect(routeOf("/")).toBe("/");
    expect(routeOf("/subscribers")).toBe("/subscribers");
    expect(routeOf("/subscribers/")).toBe("/subscribers");
    expect(routeOf("/subscribers/123")).toBe("/subscribers/[id]");
    expect(routeOf("/api/v1/subscribers/export")).toBe("/api/v1/subscribers/export");
    expect(routeOf("/api/v1/subscribers/77")).toBe("/api/v1/subscribers/[id]");
    expect(routeOf("/api/v1/subscribers/imports/0b7e")).toBe("/api/v1/subscribers/imports/[id]");
    expect(routeOf("/api/v1/nothing/here")).toBe("/api/v1/[...path]");
    expect(routeOf("/api/auth/callback/credentials")).toBe("/api/auth/[...nextauth]");
    expect(routeOf("/set-password/s3cr3t-link-token")).toBe("/set-password/[token]");
  });

  it("gives Next's files and unknown paths a fixed label each", () => {
    expect(routeOf("/_next/static/chunks/app-123.js")).toBe("/_next/static/[...path]");
    expect(routeOf("/_next/image")).toBe("/_next/[...path]");
    expect(routeOf("/no/such/page/42")).toBe(UNMATCHED_ROUTE);
    expect(routeMatcher({})("/anything")).toBe(UNMATCHED_ROUTE);
  });
});

describe("the logger's redaction", () => {
  it("hides secrets wherever an object that holds one is logged", () => {
    let written = "";
    const sink = new Writable({ write: (chunk, _encoding, done) => void ((written += String(chunk)), done()) });
    const logger = pino({ redact: { paths: REDACTED_PATHS, censor: "[redacted]" } }, sink);
    logger.info({ password: "pw-1", user: { password: "pw-2", token: "tok-1" }, req: { headers: { cookie: "c-1", authorization: "Bearer a-1" } }, filters: { q: "f-1" } }, "x");
    logger.info({ input: { setPasswordUrl: "https://x/set-password/link-1", query: "q=f-2" } }, "y");
    for (const secret of ["pw-1", "pw-2", "tok-1", "c-1", "a-1", "f-1", "link-1", "f-2"]) expect(written).not.toContain(secret);
    expect(written).toContain("[redacted]");
  });
});

describe("scrapeMetrics", () => {
  const before = process.env.METRICS_TOKEN;
  afterEach(() => {
    if (before === undefined) delete process.env.METRICS_TOKEN;
    else process.env.METRICS_TOKEN = before;
  });

  it("is not there (404) while METRICS_TOKEN is unset, whatever is sent", async () => {
    delete process.env.METRICS_TOKEN;
    expect(await scrapeMetrics(null)).toEqual({ status: 404 });
    expect(await scrapeMetrics("Bearer anything")).toEqual({ status: 404 });
  });

  it("refuses (401) any other token, or none", async () => {
    process.env.METRICS_TOKEN = "the-metrics-token";
    for (const header of [null, "", "Bearer", "Bearer the-metrics-tokenx", "Basic the-metrics-token", "Bearer the-metrics-toke"]) {
      expect(await scrapeMetrics(header), String(header)).toEqual({ status: 401 });
    }
  });
});

describe("a job's progress lines", () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("carry the job's ids, at most one every few seconds, and none outside a job", async () => {
    vi.useFakeTimers();
    const info = vi.spyOn(log, "info").mockImplementation(() => {});
    jobProgress({ processed_rows: 1 });
    await withJobLog({ job: "export", job_id: "j-1", attempt: 1 }, async () => {
      jobProgress({ processed_rows: 10 });
      vi.advanceTimersByTime(5_001);
      jobProgress({ processed_rows: 20 });
      jobProgress({ processed_rows: 30 });
      vi.advanceTimersByTime(5_001);
      jobProgress({ processed_rows: 40 });
    });
    expect(info.mock.calls).toEqual([
      [{ job: "export", job_id: "j-1", attempt: 1, processed_rows: 20 }, "job progress"],
      [{ job: "export", job_id: "j-1", attempt: 1, processed_rows: 40 }, "job progress"],
    ]);
  });
});

describe("onRequestError (instrumentation.ts)", () => {
  afterEach(() => vi.restoreAllMocks());

  it("ties the digest Next shows to the request's id and route, without the stack or the path", async () => {
    const runtime = process.env.NEXT_RUNTIME;
    process.env.NEXT_RUNTIME = "nodejs";
    try {
      const error = vi.spyOn(log, "error").mockImplementation(() => {});
      const { onRequestError } = await import("@/instrumentation");
      const failure = Object.assign(new Error("boom"), { digest: "12345" });
      const request = { path: "/subscribers/7?q=secret-filter", method: "GET", headers: { "x-request-id": "req-9", cookie: "session=abc" } };
      await onRequestError(failure, request, { routerKind: "App Router", routePath: "/(console)/subscribers/[id]", routeType: "render", revalidateReason: undefined });
      expect(error).toHaveBeenCalledTimes(1);
      const [fields] = error.mock.calls[0]! as unknown as [Record<string, unknown>];
      expect(fields).toEqual({ request_id: "req-9", route_file: "/(console)/subscribers/[id]", kind: "render", digest: "12345" });
      expect(JSON.stringify(error.mock.calls)).not.toMatch(/secret-filter|session=abc|boom/);
    } finally {
      if (runtime === undefined) delete process.env.NEXT_RUNTIME;
      else process.env.NEXT_RUNTIME = runtime;
    }
  });
});
