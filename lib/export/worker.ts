import type PgBoss from "pg-boss";
import { exportConfig } from "./config";
import { purgeLoginAttempts } from "@/lib/auth/login-attempts";
import { purgeExports } from "./purge";
import { markBulkFailed, runBulkChange } from "@/lib/subscribers/bulk";
import { markImportFailed, runImport } from "@/lib/imports/run";
import { ImportFileError } from "@/lib/imports/read";
import { purgeImports } from "@/lib/imports/purge";
import {
  BULK_FAILED_QUEUE,
  BULK_QUEUE,
  EXPORT_FAILED_QUEUE,
  EXPORT_QUEUE,
  IMPORT_FAILED_QUEUE,
  IMPORT_QUEUE,
  PURGE_QUEUE,
  queue,
  stopQueue,
  type BulkJobData,
  type ExportJobData,
  type ImportJobData,
} from "./queue";
import { markExportFailed, runExport } from "./run";
import { connection, sql } from "@/lib/db/sql";

// The export worker: runs in the web process (started by instrumentation.ts unless
// EXPORT_WORKER=off) or in a process of its own (scripts/worker.ts, `npm run worker`).
//
// Job lifecycle: `subscriber-export` jobs are fetched one at a time. An attempt that throws is
// retried (EXPORT_RETRY_LIMIT, EXPORT_RETRY_DELAY_SECONDS); an attempt whose worker died (SIGKILL,
// power loss) stays "active" until EXPORT_JOB_EXPIRE_SECONDS pass, then the queue's maintenance
// fails it, which counts as an attempt. After the last attempt pg-boss moves the job to the
// `subscriber-export-failed` queue, whose handler marks the export failed with the reason.

type Holder = { __export_worker?: { running: Set<AbortController>; started: Promise<void> } };

const errorMessage = (output: unknown): string => {
  const o = output as { message?: unknown; value?: { message?: unknown } } | null;
  const text = typeof o?.message === "string" ? o.message : typeof o?.value?.message === "string" ? o.value.message : "";
  return text || "unknown error";
};

async function onExportJob(jobs: PgBoss.JobWithMetadata<ExportJobData>[], running: Set<AbortController>) {
  for (const job of jobs) {
    const controller = new AbortController();
    running.add(controller);
    // Give up a little before pg-boss does, so no attempt keeps writing after its job expired.
    const deadline = AbortSignal.timeout(Math.max(1, job.expireInSeconds - 2) * 1000);
    // Which process took which attempt: with several workers, the logs say who ran a job.
    console.info(`export ${job.data.exportId}: attempt ${job.retryCount + 1} of ${job.retryLimit + 1} started (pid ${process.pid})`);
    try {
      const result = await runExport(job.data.exportId, AbortSignal.any([controller.signal, deadline]));
      console.info(`export ${job.data.exportId}: ${"rows" in result ? `${result.rows} rows` : `skipped, ${result.skipped}`}`);
    } catch (error) {
      console.error(`export ${job.data.exportId}: attempt ${job.retryCount + 1} of ${job.retryLimit + 1} failed`, error);
      throw error;
    } finally {
      running.delete(controller);
    }
  }
}

/** Bulk changes of subscribers (lib/subscribers/bulk.ts) run on the same queue, with the same lifecycle. */
async function onBulkJob(jobs: PgBoss.JobWithMetadata<BulkJobData>[], running: Set<AbortController>) {
  for (const job of jobs) {
    const controller = new AbortController();
    running.add(controller);
    const deadline = AbortSignal.timeout(Math.max(1, job.expireInSeconds - 2) * 1000);
    try {
      const result = await runBulkChange(job.data.bulkId, AbortSignal.any([controller.signal, deadline]));
      console.info(`bulk change ${job.data.bulkId}: ${"processed" in result ? `${result.processed} rows` : `skipped, ${result.skipped}`}`);
    } catch (error) {
      console.error(`bulk change ${job.data.bulkId}: attempt ${job.retryCount + 1} of ${job.retryLimit + 1} failed`, error);
      throw error;
    } finally {
      running.delete(controller);
    }
  }
}

/**
 * Imports (lib/imports/run.ts) on the same queue: an attempt that dies leaves only staging rows,
 * which the next attempt drops. A file that cannot be imported fails at once (no retry).
 */
async function onImportJob(jobs: PgBoss.JobWithMetadata<ImportJobData>[], running: Set<AbortController>) {
  for (const job of jobs) {
    const controller = new AbortController();
    running.add(controller);
    const deadline = AbortSignal.timeout(Math.max(1, job.expireInSeconds - 2) * 1000);
    console.info(`import ${job.data.importId}: attempt ${job.retryCount + 1} of ${job.retryLimit + 1} started (pid ${process.pid})`);
    try {
      const result = await runImport(job.data.importId, AbortSignal.any([controller.signal, deadline]));
      console.info(`import ${job.data.importId}: ${"skipped" in result ? `skipped, ${result.skipped}` : `${result.imported} of ${result.total} rows imported`}`);
    } catch (error) {
      if (ImportFileError.is(error)) {
        await markImportFailed(job.data.importId, error.message);
        continue;
      }
      console.error(`import ${job.data.importId}: attempt ${job.retryCount + 1} of ${job.retryLimit + 1} failed`, error);
      throw error;
    } finally {
      running.delete(controller);
    }
  }
}

async function onFailedImportJob(jobs: PgBoss.JobWithMetadata<ImportJobData>[]) {
  for (const job of jobs) {
    const reason = errorMessage(job.output);
    await markImportFailed(job.data.importId, `The import stopped after ${job.retryLimit + 1} attempts (${reason}). Nothing was imported: start it again.`);
  }
}

async function onFailedBulkJob(jobs: PgBoss.JobWithMetadata<BulkJobData>[]) {
  for (const job of jobs) {
    const reason = errorMessage(job.output);
    await markBulkFailed(job.data.bulkId, `The bulk change stopped after ${job.retryLimit + 1} attempts (${reason}). The batches done are kept.`);
  }
}

async function onFailedJob(jobs: PgBoss.JobWithMetadata<ExportJobData>[]) {
  for (const job of jobs) {
    const attempts = job.retryLimit + 1;
    const reason = errorMessage(job.output);
    const message = `The export could not be completed after ${attempts} attempt${attempts === 1 ? "" : "s"} (${reason}). Request it again.`;
    if (await markExportFailed(job.data.exportId, message)) console.warn(`export ${job.data.exportId}: failed, ${reason}`);
  }
}

/**
 * An embedded database is opened by one process only, so an export job still "active" when this
 * process starts belonged to a previous run that died: hand it back now instead of waiting for
 * it to expire. (On PostgreSQL another live worker may own it: there, expiry decides.)
 */
async function recoverOrphans(boss: PgBoss) {
  const conn = await connection();
  if (conn.kind !== "pglite") return;
  const rows = await conn.query<{ id: string; name: string }>(
    sql`SELECT id, name FROM pgboss.job WHERE name IN (${EXPORT_QUEUE}, ${BULK_QUEUE}, ${IMPORT_QUEUE}) AND state = 'active'`);
  if (rows.length === 0) return;
  for (const { id, name } of rows) await boss.fail(name, id, { message: "the server stopped during the job" });
  console.warn(`export worker: ${rows.length} interrupted job(s) handed back to the queue`);
}

/** Starts the worker once per process; later calls wait for the first. */
export function startExportWorker(): Promise<void> {
  const holder = globalThis as Holder;
  if (!holder.__export_worker) {
    const running = new Set<AbortController>();
    const started = (async () => {
      const boss = await queue();
      await recoverOrphans(boss);
      const polling = exportConfig.pollingSeconds;
      const options = { pollingIntervalSeconds: polling, batchSize: 1, includeMetadata: true } as const;
      await boss.work<ExportJobData>(EXPORT_QUEUE, options, (jobs) => onExportJob(jobs, running));
      await boss.work<ExportJobData>(EXPORT_FAILED_QUEUE, { ...options, pollingIntervalSeconds: polling * 2 }, onFailedJob);
      await boss.work<BulkJobData>(BULK_QUEUE, options, (jobs) => onBulkJob(jobs, running));
      await boss.work<BulkJobData>(BULK_FAILED_QUEUE, { ...options, pollingIntervalSeconds: polling * 2 }, onFailedBulkJob);
      await boss.work<ImportJobData>(IMPORT_QUEUE, options, (jobs) => onImportJob(jobs, running));
      await boss.work<ImportJobData>(IMPORT_FAILED_QUEUE, { ...options, pollingIntervalSeconds: polling * 2 }, onFailedImportJob);
      // The scheduled clean-up also drops sign-in attempts older than the throttling window.
      await boss.work(PURGE_QUEUE, { pollingIntervalSeconds: Math.max(10, polling) }, async () => {
        await purgeExports();
        await purgeImports();
        await purgeLoginAttempts();
      });
      await boss.schedule(PURGE_QUEUE, exportConfig.purgeCron);
    })();
    holder.__export_worker = { running, started };
    started.catch((error) => {
      console.error("export worker: could not start", error);
      if (holder.__export_worker?.started === started) holder.__export_worker = undefined;
    });
  }
  return holder.__export_worker.started;
}

/**
 * Stops gracefully: no new jobs; the running export may finish within EXPORT_STOP_TIMEOUT_SECONDS,
 * else it is aborted (its temporary file removed) and its job handed back for a later attempt.
 */
export async function stopExportWorker(timeoutSeconds = exportConfig.stopTimeoutSeconds): Promise<void> {
  const holder = globalThis as Holder;
  const worker = holder.__export_worker;
  holder.__export_worker = undefined;
  const abort = setTimeout(() => worker?.running.forEach((c) => c.abort(new Error("The worker is stopping."))), Math.max(0, timeoutSeconds - 1) * 1000);
  try {
    await worker?.started.catch(() => {});
    await stopQueue(timeoutSeconds);
  } finally {
    clearTimeout(abort);
  }
}
