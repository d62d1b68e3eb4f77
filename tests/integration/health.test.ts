import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as health from "@/app/api/health/route";
import * as branchesApi from "@/app/api/v1/branches/route";
import * as exportApi from "@/app/api/v1/subscribers/export/route";
import { openDatabase, setDatabaseForTests, type Database } from "@/lib/db/client";
import type { SessionUser } from "@/lib/auth/permissions";
import type { HealthReport } from "@/lib/health/check";
import { actAs, createUsers, testDatabase, testDbKinds } from "../helpers/db";
import { apiRequest } from "../helpers/http";
import { freePort } from "../helpers/pg-cluster";

// GET /api/health on a working database of each kind, and what the API answers when the
// database server cannot be reached (a port nobody listens on: connection refused, as when
// PostgreSQL is stopped). tests/integration/outage.test.ts stops and restarts a real server.
// Issue 19, point 7: strangers (and staff) learn "ok" or "unavailable" only; the latency, queue
// counts and worker timing go to a signed-in admin or to the operator's HEALTH_TOKEN. The route is
// called directly: its no-store and other headers are server.ts's, checked over HTTP in
// tests/http/policy.test.ts and tests/integration/outage.test.ts.

const TOKEN = "health-test-token-0123456789abcdef0123";
process.env.HEALTH_TOKEN = TOKEN;
const asMonitor = { authorization: `Bearer ${TOKEN}` };

const get = async (headers: Record<string, string> = asMonitor) => {
  const response = await health.GET(apiRequest("/api/health", { headers }));
  return { response, body: (await response.json()) as HealthReport };
};

for (const kind of testDbKinds()) {
  describe(`health on ${kind}`, () => {
    let database: Database;

    beforeAll(async () => {
      database = await testDatabase(kind);
    });
    afterAll(async () => {
      await database?.close();
    });

    it("tells anonymous callers and staff only that it is up, and no more for a wrong token", async () => {
      const { staff } = await createUsers(database);
      for (const [who, headers] of [
        [null, {}],
        [staff, {}],
        [null, { authorization: `Bearer ${TOKEN.slice(0, -1)}x` }],
        [null, { authorization: TOKEN }],
      ] as const) {
        actAs(who);
        const { response, body } = await get(headers);
        expect(response.status).toBe(200);
        expect(body).toEqual({ status: "ok" });
      }
      actAs(null);
    });

    it("gives the details to a signed-in admin", async () => {
      const { admin } = await createUsers(database);
      actAs(admin);
      const { body } = await get({});
      actAs(null);
      expect(body).toMatchObject({ status: "ok", database: { status: "up", kind, latency_ms: expect.any(Number) }, queue: { queued: 0 } });
    });

    it("reports the database up and the queue", async () => {
      const { response, body } = await get();
      expect(response.status).toBe(200);
      expect(body).toMatchObject({
        status: "ok",
        database: { status: "up", kind, latency_ms: expect.any(Number) },
        queue: { status: "not_started", worker: "in_process", queued: 0, running: 0, oldest_queued_seconds: null },
      });
      expect(Date.parse(body.checked_at)).not.toBeNaN();
    });

    it("says the queue is stalled when exports wait and no worker ever ran", async () => {
      const { admin } = await createUsers(database);
      await database.prisma.$executeRawUnsafe(
        `INSERT INTO subscriber_exports (id, user_id, status, filters, fresh, total_rows, created_at)
         VALUES ('health-test-export-0001', $1, 'in_queue', '{}'::jsonb, true, 0, now() - interval '5 minutes')`,
        admin.id,
      );
      const { response, body } = await get();
      expect(response.status).toBe(200); // the database answers: the site is up, degraded
      expect(body).toMatchObject({ status: "degraded", queue: { status: "stalled", queued: 1, running: 0 } });
      expect(body.queue.oldest_queued_seconds).toBeGreaterThanOrEqual(299);
      await database.prisma.$executeRawUnsafe(`DELETE FROM subscriber_exports WHERE id = 'health-test-export-0001'`);
    });
  });
}

describe("with the database server unreachable", () => {
  let database: Database;
  let working: Database;
  let staff: SessionUser;

  beforeAll(async () => {
    working = await testDatabase("pglite"); // for the users only; the app's code gets the dead one
    ({ staff } = await createUsers(working));
    actAs(staff);
    const port = await freePort(); // nothing listens there
    database = await openDatabase({ kind: "postgres", url: `postgres://postgres@127.0.0.1:${port}/console` });
    setDatabaseForTests(database);
  });
  afterAll(async () => {
    actAs(null);
    await database?.close();
    await working?.close();
  });

  it("GET /api/health answers 503 with Retry-After: the status only for others", async () => {
    try {
      for (const who of [null, staff]) {
        actAs(who);
        const { response, body } = await get({});
        expect(response.status).toBe(503);
        expect(response.headers.get("retry-after")).toMatch(/^\d+$/);
        expect(body).toEqual({ status: "unavailable" });
      }
    } finally {
      actAs(staff);
    }
  });

  it("GET /api/health answers 503 with Retry-After, and the operator's token sees why, without host details", async () => {
    const { response, body } = await get();
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(body).toMatchObject({
      status: "unavailable",
      database: { status: "down", kind: "postgres", latency_ms: null, reason: "unreachable" },
      queue: { status: "unknown" },
    });
    expect(JSON.stringify(body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|postgres:\/\//);
  });

  it("the JSON API answers 503 `unavailable` with Retry-After, never a 500 or a stack", async () => {
    for (const response of [
      await branchesApi.GET(apiRequest("/api/v1/branches"), {}),
      await exportApi.GET(apiRequest("/api/v1/subscribers/export"), {}),
    ]) {
      const text = await response.text();
      expect(response.status, text).toBe(503);
      expect(response.headers.get("retry-after")).toBe("5");
        expect(JSON.parse(text)).toEqual({ error: { code: "unavailable", message: "The database is unavailable. Try again in a few seconds." } });
      expect(text).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|at \S+ \(/);
    }
  });

  it("HEAD /api/health has the status and no body", async () => {
    const response = await health.HEAD(apiRequest("/api/health"));
    expect(response.status).toBe(503);
    expect(await response.text()).toBe("");
  });
});
