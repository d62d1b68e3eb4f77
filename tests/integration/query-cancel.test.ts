import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/lib/db/client";
import { isQueryCancelled } from "@/lib/db/errors";
import { withQuerySignal } from "@/lib/db/scope";
import { sql } from "@/lib/db/sql";
import { toolEnv } from "@/tools/env";
import { createTestDatabase, type TestDatabase } from "../helpers/postgres";

// Raw statements on PostgreSQL (lib/db/pool.ts): a statement of a request whose client went away
// is stopped in PostgreSQL unless it finishes within a short grace; one that finishes keeps its
// connection (a client closing a page would otherwise cost the pool a new connection per statement
// it had running), one that is stopped loses it, and the server ends the statement with it.

const url = toolEnv(["TEST_DATABASE_URL"]).TEST_DATABASE_URL;

describe.runIf(url)("statements of an abandoned request (PostgreSQL)", () => {
  let created: TestDatabase;
  let database: Database;
  let monitor: pg.Client;

  beforeAll(async () => {
    created = await createTestDatabase(url!);
    database = await openDatabase({ kind: "postgres", url: created.url });
    monitor = new pg.Client({ connectionString: created.url });
    await monitor.connect();
  });
  afterAll(async () => {
    await monitor?.end();
    await database?.close();
    await created?.drop();
  });

  const backend = async () => (await database.query<{ pid: number }>("SELECT pg_backend_pid() AS pid"))[0]!.pid;
  const running = async (pid: number) =>
    (await monitor.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND state = 'active'", [pid])).rowCount === 1;

  it("lets a statement that finishes within the grace finish, on a connection it keeps", async () => {
    const before = await backend();
    const controller = new AbortController();
    const answer = withQuerySignal(controller.signal, () => database.query<{ pid: number }>(sql`SELECT pg_sleep(0.03), pg_backend_pid() AS pid`));
    await new Promise((resolve) => setTimeout(resolve, 5)); // the statement is on its way
    controller.abort();
    expect((await answer)[0]!.pid).toBe(before);
    expect(await backend()).toBe(before);
  });

  it("stops one still running after the grace: in PostgreSQL too, and its connection is not reused", async () => {
    const controller = new AbortController();
    const started = Date.now();
    const answer = withQuerySignal(controller.signal, () => database.query(sql`SELECT pg_sleep(10), pg_backend_pid() AS pid`));
    answer.catch(() => {}); // awaited below
    await new Promise((resolve) => setTimeout(resolve, 50));
    const [sleeping] = (await monitor.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(10)%' AND state = 'active'")).rows;
    expect(sleeping).toBeDefined();
    controller.abort();
    const error = await answer.then(() => null, (e: unknown) => e);
    expect(isQueryCancelled(error)).toBe(true);
    expect(Date.now() - started).toBeLessThan(2_000);
    const end = Date.now() + 2_000;
    while ((await running(sleeping!.pid)) && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(await running(sleeping!.pid), "the statement still runs in PostgreSQL").toBe(false);
    expect(await backend()).not.toBe(sleeping!.pid);
  });

  it("does not start a statement once the request is gone", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(withQuerySignal(controller.signal, () => database.query(sql`SELECT 1`))).rejects.toThrow(/closed the request/);
  });
});
