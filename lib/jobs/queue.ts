import PgBoss from "pg-boss";
import { problem } from "@/lib/i18n/problem";
import { config, jobStopSeconds } from "@/lib/config";
import { outsideRequest } from "@/lib/db/scope";
import { connection, sql, type Queryable, type SqlConnection } from "@/lib/db/sql";
import { AppError } from "@/lib/errors";
import { processWide } from "@/lib/process-wide";
import { webSlot } from "@/lib/server/web-processes";
import { logError } from "@/lib/telemetry/log";

// One pg-boss queue for exports, imports and bulk changes (schema "pgboss", created by boss.start()),
// one instance per process; per-user limits and order are decided in the database so they hold
// across instances (docs/decisions/0022-jobs-fair-per-user.md).

export const JOB_QUEUE = "console-job";
/** Where pg-boss moves a job whose last attempt failed (or expired): see worker.ts. */
export const JOB_FAILED_QUEUE = "console-job-failed";
/** The scheduled clean-up (old exports and imports, sign-in attempts, the trash). */
export const PURGE_QUEUE = "console-purge";
/** Its name while it purged exports only: the schedule stored under it is removed at start (worker.ts). */
export const LEGACY_PURGE_QUEUE = "subscriber-export-purge";

export type JobKind = "export" | "import" | "bulk";
export type JobData = { kind: JobKind; id: string; userId: number };

/** Per-kind queues of older versions: a job still waiting in one is worked there (worker.ts). */
export const LEGACY_QUEUES = [
  { name: "subscriber-export", failed: "subscriber-export-failed", kind: "export", idKey: "exportId" },
  { name: "subscriber-import", failed: "subscriber-import-failed", kind: "import", idKey: "importId" },
  { name: "subscriber-bulk-change", failed: "subscriber-bulk-change-failed", kind: "bulk", idKey: "bulkId" },
] as const;

/** The web process (the first of several) runs the worker unless told not to (JOB_WORKER=off); scripts/worker.ts always does. */
export const runsWorker = () => config().JOB_WORKER && webSlot() === 1;

const current = processWide("jobs.queue", () => ({ started: undefined as { conn: SqlConnection; boss: Promise<PgBoss> } | undefined }));

/** The process's started queue, for the current database. */
export async function queue(): Promise<PgBoss> {
  const conn = await connection();
  if (current.started?.conn !== conn) {
    // Often first started by a request: its timers outlive it, so they must not run in its (abortable) scope.
    const boss = outsideRequest(() => start(conn));
    current.started = { conn, boss };
    boss.catch(() => {
      if (current.started?.boss === boss) current.started = undefined;
    });
  }
  return current.started.boss;
}

/** The advisory lock that serialises starting the queue (tests/integration/worker-start.test.ts). */
const START_LOCK = "console.export-queue.start";

async function start(conn: SqlConnection): Promise<PgBoss> {
  const worker = runsWorker();
  const boss = new PgBoss({
    db: { executeSql: (text: string, values: unknown[]) => conn.executeSql(text, values) },
    // Maintenance (expiring the jobs of killed workers) and cron belong to processes that work.
    supervise: worker,
    schedule: worker,
    maintenanceIntervalSeconds: config().JOB_MAINTENANCE_SECONDS,
  });
  boss.on("error", (error) => logError(error, "job queue: error"));
  // pg-boss creates queues without a lock: processes starting at once deadlock on a fresh database.
  await conn.exclusive(START_LOCK, async () => {
    await boss.start();
    await boss.createQueue(JOB_FAILED_QUEUE, { name: JOB_FAILED_QUEUE });
    await boss.createQueue(PURGE_QUEUE, { name: PURGE_QUEUE });
    await boss.createQueue(JOB_QUEUE, { name: JOB_QUEUE, deadLetter: JOB_FAILED_QUEUE });
  });
  return boss;
}

/** Namespace of the advisory locks under which a user's job requests take turns. */
const USER_LOCK = 0x4a4f4253; // "JOBS"

/** Seconds a refused request is told to wait: about one small job. */
const RETRY_AFTER_SECONDS = 30;

export const tooManyJobs = (limit: number) =>
  new AppError(
    429,
    "too_many_jobs",
    problem("jobs.tooMany", { limit }),
    undefined,
    RETRY_AFTER_SECONDS,
    { limit },
  );

/**
 * Queues a job in our transaction (it exists only if that commits). Counts the user's unfinished
 * jobs under their advisory lock (429 past JOBS_PER_USER) and ranks it behind them (docs/decisions/0022-jobs-fair-per-user.md).
 */
export async function sendJob(tx: Queryable & Pick<SqlConnection, "executeSql">, data: JobData, jobId: string): Promise<string> {
  const boss = await queue();
  await tx.query(sql`SELECT 1 AS locked FROM pg_advisory_xact_lock(${USER_LOCK}, ${data.userId})`);
  const [row] = await tx.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM pgboss.job
    WHERE name = ${JOB_QUEUE} AND state < 'completed' AND data->>'userId' = ${String(data.userId)}`);
  const unfinished = row?.n ?? 0;
  if (unfinished >= config().JOBS_PER_USER) throw tooManyJobs(config().JOBS_PER_USER);
  const id = await boss.send(JOB_QUEUE, data, {
    id: jobId,
    priority: -unfinished,
    retryLimit: config().JOB_RETRY_LIMIT,
    retryDelay: config().JOB_RETRY_DELAY_SECONDS,
    expireInSeconds: config().JOB_EXPIRE_SECONDS,
    deadLetter: JOB_FAILED_QUEUE,
    db: { executeSql: (text: string, values: unknown[]) => tx.executeSql(text, values) },
  });
  if (!id) throw new Error(`The job queue did not accept the ${data.kind} job.`);
  return id;
}

/** Stops the queue (graceful: running jobs get `timeoutSeconds` to finish). */
export async function stopQueue(timeoutSeconds = jobStopSeconds()): Promise<void> {
  const stopping = current.started;
  current.started = undefined;
  if (!stopping) return;
  const boss = await stopping.boss.catch(() => null);
  await boss?.stop({ graceful: true, wait: true, close: false, timeout: timeoutSeconds * 1000 });
}

/** Jobs by queue and state, for the metrics; none before pg-boss has made its schema. */
export async function countJobs(): Promise<{ queue: string; state: string; n: number }[]> {
  const conn = await connection();
  const [made] = await conn.query<{ made: boolean }>(sql`SELECT to_regclass('pgboss.job') IS NOT NULL AS made`);
  if (!made?.made) return [];
  return conn.query(sql`SELECT name AS queue, state::text AS state, count(*)::int AS n FROM pgboss.job GROUP BY name, state`);
}
