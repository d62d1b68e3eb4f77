import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { applyMigrations } from "@/tools/migrate";
import { spawnWorker, until, type WorkerProcess } from "../helpers/export-process";
import { createTestDatabase, type TestDatabase } from "../helpers/postgres";

// Issue 19, point 9: two `npm run worker` processes started at the same moment on a fresh
// database; one died in 2 runs of 4 with "deadlock detected" (pg-boss creates its queues and
// their partitions on every start, without a lock). Here two real worker processes (the
// script `npm run worker` runs) start on a fresh PostgreSQL database several times; to make "the
// same moment" exact rather than lucky, the test holds pg-boss's own schema-creation lock until
// both processes wait on the database, then lets them go together. Both must be running after.

const ROUNDS = 3;
const WORKERS = 2;

/** The advisory lock pg-boss takes to create its schema (plans.js, `advisoryLock`). */
const PGBOSS_LOCK = `('x' || encode(sha224((current_database() || '.pgboss.pgboss')::bytea), 'hex'))::bit(64)::bigint`;

if (!process.env.TEST_DATABASE_URL) {
  console.info("worker-start.test.ts: TEST_DATABASE_URL is not set, so the two-workers start test is skipped (it needs PostgreSQL).");
}

describe.skipIf(!process.env.TEST_DATABASE_URL)("export workers started at the same moment (postgres)", () => {
  const exportDir = fs.mkdtempSync(path.join(os.tmpdir(), "worker-start-"));
  const databases: TestDatabase[] = [];
  const workers: WorkerProcess[] = [];

  afterAll(async () => {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill("SIGKILL");
    await Promise.all(workers.map((w) => w.exited));
    for (const d of databases) await d.drop();
    fs.rmSync(exportDir, { recursive: true, force: true });
  });

  for (let round = 1; round <= ROUNDS; round++) {
    it(`round ${round}: ${WORKERS} workers on a fresh database all start and keep running`, async () => {
      const database = await createTestDatabase(process.env.TEST_DATABASE_URL!);
      databases.push(database);
      await applyMigrations(database.url);

      const gate = new pg.Client({ connectionString: database.url });
      await gate.connect();
      const started: WorkerProcess[] = [];
      try {
        await gate.query(`SELECT pg_advisory_lock(${PGBOSS_LOCK})`);
        const env = { DATABASE_URL: database.url, STORAGE_DIR: exportDir, JOB_POLL_SECONDS: "1" };
        for (let i = 0; i < WORKERS; i++) started.push(spawnWorker(env));
        workers.push(...started);
        // Both are at the gate: waiting on an advisory lock in this database.
        await until(
          async () => {
            const { rows } = await gate.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'advisory'`,
            );
            const gone = started.find((w) => w.child.exitCode !== null);
            if (gone) throw new Error(`a worker exited before the gate:\n${gone.output()}`);
            return rows[0]!.n >= WORKERS;
          },
          60_000,
          "both workers to wait at the gate",
        );
      } finally {
        await gate.query(`SELECT pg_advisory_unlock_all()`);
        await gate.end();
      }

      await until(
        async () => {
          const gone = started.find((w) => w.child.exitCode !== null);
          if (gone) throw new Error(`a worker died (exit ${gone.child.exitCode}):\n${gone.output()}`);
          return started.every((w) => w.output().includes("job worker: started"));
        },
        60_000,
        "both workers to start",
      );
      await new Promise((r) => setTimeout(r, 1_500)); // a polling round or so: still alive
      for (const w of started) expect(w.child.exitCode, w.output()).toBeNull();
      for (const w of started) expect(w.output()).not.toMatch(/deadlock|could not start/);

      for (const w of started) w.child.kill("SIGTERM");
      expect(await Promise.all(started.map((w) => w.exited))).toEqual(started.map(() => 0));
    }, 120_000);
  }
});
