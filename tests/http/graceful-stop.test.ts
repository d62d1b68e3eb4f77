import net from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, rawRequest, startConsole, type ConsoleServer } from "../helpers/console-server";
import { until } from "../helpers/export-process";

// The graceful stop of a web instance against the production build (docs/deployment.md,
// Upgrading): on SIGTERM its readiness answers 503 at once while liveness stays up, a request in
// flight is answered in full, new connections are refused after the notice, and it exits 0,
// whatever connections clients keep open (idle ones, and one never used, are closed).
// PostgreSQL: a lock held by the test keeps a request in flight for as long as it needs.

const ADMIN = { email: "boss@stop.test", password: "stop-password-123", role: "admin" as const };

if (process.env.TEST_DATABASE_URL) {
  describe("graceful stop over HTTP", () => {
    let server: ConsoleServer;
    let admin: Browser;
    let lock: pg.Client;

    beforeAll(async () => {
      server = await startConsole("postgres", { users: [ADMIN], env: { SHUTDOWN_NOTICE_SECONDS: "2", SHUTDOWN_TIMEOUT_SECONDS: "20", DATABASE_STATEMENT_TIMEOUT_MS: "30000" } });
      admin = new Browser(server.url);
      expect((await admin.signIn(ADMIN.email, ADMIN.password)).status).toBe(200);
      lock = new pg.Client({ connectionString: server.databaseUrl! });
      await lock.connect();
    }, 120_000);
    afterAll(async () => {
      await lock?.end();
      await server?.close();
    });

    it("reports not ready from SIGTERM, finishes the request it holds, then refuses connections and exits 0", async () => {
      const ready = await rawRequest(server.url, "/api/health/ready");
      expect(ready.status).toBe(200);
      expect(JSON.parse(ready.body)).toEqual({ status: "ready" });
      expect((await admin.request("/api/v1/branches")).status).toBe(200); // the route warmed up

      await lock.query("BEGIN");
      await lock.query("LOCK TABLE branches IN ACCESS EXCLUSIVE MODE");
      const slow = admin.request("/api/v1/branches");
      await until(async () => (await lock.query("SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted")).rows[0].n > 0, 10_000, "the request to wait on the lock");
      // A connection opened and never used (a browser's preconnect): it must not hold the stop.
      const spare = net.connect(Number(new URL(server.url).port), "127.0.0.1");
      await new Promise((resolve) => spare.once("connect", resolve));
      const spareClosed = new Promise<void>((resolve) => spare.once("close", () => resolve()));
      spare.on("error", () => {});
      const exited = new Promise<number | null>((resolve) => server.child.once("exit", (code) => resolve(code)));
      const signalled = Date.now();
      process.kill(server.pid, "SIGTERM");

      const stopping = await until(async () => {
        const answer = await rawRequest(server.url, "/api/health/ready");
        return answer.status === 503 ? answer : null;
      }, 1_500, "readiness to turn 503");
      expect(JSON.parse(stopping.body)).toEqual({ status: "stopping" });
      expect(stopping.headers.connection).toBe("close");
      expect((await rawRequest(server.url, "/api/health")).status).toBe(200); // liveness unchanged
      // A request that arrives in the notice and is still held when the instance stops listening.
      const late = admin.request("/api/v1/branches");
      await until(async () => (await lock.query("SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted")).rows[0].n > 1, 1_500, "the late request to wait on the lock");

      // Past the notice: no new connection, while the request in flight is still held.
      await new Promise((r) => setTimeout(r, 2_500));
      await expect(rawRequest(server.url, "/api/health/ready")).rejects.toThrow(/ECONNREFUSED/);
      await lock.query("COMMIT");
      const answer = await slow;
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toHaveProperty("data");
      const lateAnswer = await late;
      expect(lateAnswer.status).toBe(200);
      expect(lateAnswer.headers.connection).toBe("close");
      expect(await exited).toBe(0);
      await spareClosed;
      expect(Date.now() - signalled).toBeLessThan(15_000); // the request's end, not the timeout, let it go
      expect(server.output()).toContain("SIGTERM: stopping");
    }, 60_000);
  });
}
