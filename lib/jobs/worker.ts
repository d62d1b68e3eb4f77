import type PgBoss from "pg-boss";
import { purgeLoginAttempts } from "@/lib/auth/login-attempts";
import { connection, sql } from "@/lib/db/sql";
import { purgeExports } from "@/lib/export/purge";
import { markExportFailed, runExport } from "@/lib/export/run";
import { purgeImports } from "@/lib/imports/purge";
import { ImportFileError } from "@/lib/imports/read";
import { markImportFailed, runImport } from "@/lib/imports/run";
import { problem } from "@/lib/i18n/problem";
import { processWide } from "@/lib/process-wide";
import { markBulkFailed, runBulkChange } from "@/lib/subscribers/bulk";
import { runRetention } from "@/lib/people/retention";
import { purgeTrash } from "@/lib/trash/purge";
import { log, logError } from "@/lib/telemetry/log";
import { metrics } from "@/lib/telemetry/metrics";
import { config, jobStopSeconds } from "@/lib/config";
import { startWebhookDelivery, stopWebhookDelivery } from "@/lib/webhooks/deliver";
import { purgeWebhookEvents } from "@/lib/webhooks/outbox";
import { jobProgress, withJobLog } from "./progress";
import { JOB_FAILED_QUEUE, JOB_QUEUE, LEGACY_PURGE_QUEUE, LEGACY_QUEUES, PURGE_QUEUE, queue, stopQueue, type JobData, type JobKind } from "./queue";

// The job worker, in the web process (unless JOB_WORKER=off) or its own (scripts/worker.ts). More
// slots than JOBS_PER_USER, so one user never holds them all (docs/decisions/0022-jobs-fair-per-user.md).
// Failed attempts retry; after the last one pg-boss moves the job to the failed queue, whose handler marks it failed.

type Kind = {
  /** One attempt: what it did, for the log. */
  run(id: string, signal: AbortSignal): Promise<string>;
  /** The last attempt failed: the record says so, and why (a problem key, put into words where it is shown; `reason` the error's own text). */
  failed(id: string, attempts: number, reason: string): Promise<unknown>;
};

const KINDS: Record<JobKind, Kind> = {
  export: {
    async run(id, signal) {
      const result = await runExport(id, signal);
      return "rows" in result ? `${result.rows} rows` : `skipped, ${result.skipped}`;
    },
    async failed(id, attempts, reason) {
      if (await markExportFailed(id, problem("export.failedAfter", { attempts, reason }))) log.warn({ job: "export", job_id: id, reason }, "job failed");
    },
  },
  bulk: {
    async run(id, signal) {
      const result = await runBulkChange(id, signal, (processed) => jobProgress({ processed_rows: processed }));
      return "processed" in result ? `${result.processed} rows` : `skipped, ${result.skipped}`;
    },
    failed: (id, attempts, reason) => markBulkFailed(id, problem("bulk.stoppedAfter", { attempts, reason })),
  },
  import: {
    /** An attempt that dies leaves only staging rows, which the next drops; a file that cannot be imported fails at once. */
    async run(id, signal) {
      try {
        const result = await runImport(id, signal);
        return "skipped" in result ? `skipped, ${result.skipped}` : `${result.imported} of ${result.total} rows imported`;
      } catch (error) {
        if (!ImportFileError.is(error)) throw error;
        await markImportFailed(id, error.problem);
        return `failed, ${error.message}`;
      }
    },
    failed: (id, attempts, reason) => markImportFailed(id, problem("imports.stoppedAfter", { attempts, reason })),
  },
};

/** The last attempt's error, as its own text (a value of the failure's problem key, so cut here: the key is stored whole). */
const errorMessage = (output: unknown): string => {
  const o = output as { message?: unknown; value?: { message?: unknown } } | null;
  const text = typeof o?.message === "string" ? o.message : typeof o?.value?.message === "string" ? o.value.message : "";
  return (text || "unknown error").slice(0, 300);
};

type Job = PgBoss.JobWithMetadata<Pick<JobData, "kind" | "id">>;

async function onJobs(jobs: Job[], running: Set<AbortController>) {
  for (const job of jobs) {
    const { kind, id } = job.data;
    const controller = new AbortController();
    running.add(controller);
    // Give up a little before pg-boss expires the job, so no attempt writes after it.
    const deadline = AbortSignal.timeout(Math.max(1, job.expireInSeconds - 2) * 1000);
    const fields = { job: kind, job_id: id, attempt: job.retryCount + 1, attempts: job.retryLimit + 1 };
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    log.info(fields, "job started");
    try {
      const outcome = await withJobLog(fields, () => KINDS[kind].run(id, AbortSignal.any([controller.signal, deadline])));
      metrics.jobSeconds.observe({ kind, outcome: "done" }, seconds());
      log.info({ ...fields, outcome, duration_ms: Math.round(seconds() * 1000) }, "job ended");
    } catch (error) {
      metrics.jobSeconds.observe({ kind, outcome: "failed" }, seconds());
      logError(error, "job attempt failed", { ...fields, duration_ms: Math.round(seconds() * 1000) });
      throw error;
    } finally {
      running.delete(controller);
    }
  }
}

async function onFailedJobs(jobs: Job[]) {
  for (const job of jobs) await KINDS[job.data.kind].failed(job.data.id, job.retryLimit + 1, errorMessage(job.output));
}

/** A job of a legacy queue, read as one of the shared queue's. */
const fromLegacy = (legacy: (typeof LEGACY_QUEUES)[number], jobs: PgBoss.JobWithMetadata<Record<string, string>>[]): Job[] =>
  jobs.map((job) => ({ ...job, data: { kind: legacy.kind, id: job.data[legacy.idKey]! } }));

/**
 * PGlite is opened by one process, so a job still active at start belonged to a dead run: hand it
 * back now (on PostgreSQL another live worker may own it; expiry decides).
 */
async function recoverOrphans(boss: PgBoss) {
  const conn = await connection();
  if (conn.kind !== "pglite") return;
  const names = [JOB_QUEUE, ...LEGACY_QUEUES.map((q) => q.name)];
  const rows = await conn.query<{ id: string; name: string }>(sql`SELECT id, name FROM pgboss.job WHERE name = ANY(${names}) AND state = 'active'`);
  if (rows.length === 0) return;
  for (const { id, name } of rows) await boss.fail(name, id, { message: "the server stopped during the job" });
  log.warn({ jobs: rows.map((r) => r.id) }, "job worker: interrupted jobs handed back to the queue");
}

const current = processWide("jobs.worker", () => ({ worker: undefined as { running: Set<AbortController>; started: Promise<void> } | undefined, stopped: false }));

/** Starts the worker once per process; later calls wait for the first. */
export function startJobWorker(): Promise<void> {
  if (!current.worker) {
    const running = new Set<AbortController>();
    const started = (async () => {
      const boss = await queue();
      await recoverOrphans(boss);
      const polling = config().JOB_POLL_SECONDS;
      const options = { pollingIntervalSeconds: polling, batchSize: 1, includeMetadata: true } as const;
      const failedOptions = { ...options, pollingIntervalSeconds: polling * 2 };
      // pg-boss 10 runs one job at a time per work() call: concurrency is that many calls.
      for (let i = 0; i < config().JOB_CONCURRENCY; i++) await boss.work<JobData>(JOB_QUEUE, options, (jobs) => onJobs(jobs, running));
      await boss.work<JobData>(JOB_FAILED_QUEUE, failedOptions, onFailedJobs);
      for (const legacy of LEGACY_QUEUES) {
        if (!(await boss.getQueue(legacy.name))) continue;
        await boss.work<Record<string, string>>(legacy.name, failedOptions, (jobs) => onJobs(fromLegacy(legacy, jobs), running));
        await boss.work<Record<string, string>>(legacy.failed, failedOptions, (jobs) => onFailedJobs(fromLegacy(legacy, jobs)));
      }
      // The scheduled clean-up also drops sign-in attempts older than the throttling window, and erases
      // what has been in the trash for TRASH_RETENTION_DAYS (lib/trash/purge.ts), and subscribers past
      // RETENTION_ERASE_AFTER_DAYS when set (lib/people/retention.ts).
      await boss.work(PURGE_QUEUE, { pollingIntervalSeconds: Math.max(10, polling) }, async () => {
        await purgeExports();
        await purgeImports();
        await purgeLoginAttempts();
        await purgeTrash();
        await runRetention();
        // Webhook events hold records' data: kept as long as the trash keeps what was deleted.
        await purgeWebhookEvents(config().TRASH_RETENTION_DAYS);
      });
      await boss.schedule(PURGE_QUEUE, config().JOB_PURGE_CRON);
      // One schedule: an older version's, under the queue's former name, would purge twice.
      await boss.unschedule(LEGACY_PURGE_QUEUE);
      // Webhook deliveries are claimed from their own table, beside the jobs (docs/decisions/0045-webhooks.md).
      startWebhookDelivery();
    })();
    current.worker = { running, started };
    started.catch((error) => {
      logError(error, "job worker: could not start");
      if (current.worker?.started === started) current.worker = undefined;
    });
  }
  return current.worker.started;
}

/**
 * The web process's worker: a start that fails (the database is away or slow to answer, say) is
 * tried again, later and later, so that no process serves on while its jobs wait for nobody.
 */
export async function keepStartingJobWorker(start = startJobWorker, wait = (ms: number) => new Promise((r) => setTimeout(r, ms).unref())): Promise<void> {
  for (let delay = 1_000; ; delay = Math.min(delay * 2, 60_000)) {
    try {
      return await start();
    } catch {
      // Logged by startJobWorker.
    }
    if (current.stopped) return;
    await wait(delay);
  }
}

/** Stops gracefully; jobs still running at the timeout are aborted and handed back for a later attempt. */
export async function stopJobWorker(timeoutSeconds = jobStopSeconds()): Promise<void> {
  const worker = current.worker;
  current.worker = undefined;
  current.stopped = true;
  const abort = setTimeout(() => worker?.running.forEach((c) => c.abort(new Error("The worker is stopping."))), Math.max(0, timeoutSeconds - 1) * 1000);
  try {
    await worker?.started.catch(() => {});
    await Promise.all([stopQueue(timeoutSeconds), stopWebhookDelivery()]);
  } finally {
    clearTimeout(abort);
  }
}
