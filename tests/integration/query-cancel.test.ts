import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endPool } from "@/lib/db/end-pool";
import { consolePool } from "@/lib/db/pool";
import { withQuerySignal } from "@/lib/db/scope";
import { toolEnv } from "@/tools/env";
import { createTestDatabase, type TestDatabase } from "../helpers/postgres";

// lib/db/pool.ts on PostgreSQL: a statement of a request whose client went away is cancelled in
// PostgreSQL unless it finishes within a short grace; one that finishes keeps its connection
// (a client closing a page would otherwise cost the pool a new connection per statement it had
// running), one that is cancelled loses it (the cancel might reach the next statement).

const url = toolEnv(["TEST_DATABASE_URL"]).TEST_DATABASE_URL;

describe.runIf(url)("statements of an abandoned request (PostgreSQL)", () => {
  let database: TestDatabase;
  let pool: pg.Pool;

  beforeAll(async () => {
    database = await createTestDatabase(url!);
    pool = consolePool({ connectionString: database.url, max: 1 });
  });
  afterAll(async () => {
    if (pool) await endPool(pool);
    await database?.drop();
  });

  const backend = async () => (await pool.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;

  it("lets a statement that finishes within the grace finish, on a connection it keeps", async () => {
    const before = await backend();
    const controller = new AbortController();
    const running = withQuerySignal(controller.signal, () => pool.query<{ pid: number }>("SELECT pg_sleep(0.03), pg_backend_pid() AS pid"));
    await new Promise((resolve) => setTimeout(resolve, 5)); // the statement is on its way
    controller.abort();
    expect((await running).rows[0]!.pid).toBe(before);
    expect(await backend()).toBe(before);
  });

  it("cancels one still running after the grace, and its connection is not reused", async () => {
    const before = await backend();
    const controller = new AbortController();
    const started = Date.now();
    const running = withQuerySignal(controller.signal, () => pool.query("SELECT pg_sleep(10)"));
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    await expect(running).rejects.toMatchObject({ code: "57014" });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await backend()).not.toBe(before);
  });

  it("does not start a statement once the request is gone", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(withQuerySignal(controller.signal, () => pool.query("SELECT 1"))).rejects.toThrow(/closed the request/);
  });
});
