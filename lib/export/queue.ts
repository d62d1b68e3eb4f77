import { config } from "@/lib/config";
import PgBoss from "pg-boss";
import { exportConfig } from "./config";
import { outsideRequest } from "@/lib/db/scope";
import { connection, type SqlConnection } from "@/lib/db/sql";

// The job queue: pg-boss in the database's own "pgboss" schema (created by boss.start(), not by
// the Prisma migrations), on PGlite through its `db.executeSql` option and on PostgreSQL over the
// export's pg pool. One instance per process, kept on globalThis like the database.

export const EXPORT_QUEUE = "subscriber-export";
/** Where pg-boss moves an export job whose last attempt failed (or expired): see worker.ts. */
export const EXPORT_FAILED_QUEUE = "subscriber-export-failed";
export const PURGE_QUEUE = "subscriber-export-purge";
/** Bulk changes of subscribers (lib/subscribers/bulk.ts) share the queue, its settings and its workers. */
export const BULK_QUEUE = "subscriber-bulk-change";
export const BULK_FAILED_QUEUE = "subscriber-bulk-change-failed";
export type BulkJobData = { bulkId: string };
/** Imports of subscribers' sheets (lib/imports) too. */
export const IMPORT_QUEUE = "subscriber-import";
export const IMPORT_FAILED_QUEUE = "subscriber-import-failed";
export type ImportJobData = { importId: string };

export type ExportJobData = { exportId: string };

/** The web process runs the worker unless told not to (EXPORT_WORKER=off); scripts/worker.ts always does. */
export const runsWorker = () => config().EXPORT_WORKER;

/** Per-job options, so that changed settings apply to the next request without a migration. */
function exportJobOptions(id: string): PgBoss.SendOptions {
  const c = exportConfig;
  return {
    id,
    retryLimit: c.retryLimit,
    retryDelay: c.retryDelaySeconds,
    expireInSeconds: c.expireSeconds,
    deadLetter: EXPORT_FAILED_QUEUE,
  };
}

type Holder = { __export_boss?: { conn: SqlConnection; boss: Promise<PgBoss> } };

/** The process's started queue, for the current database. */
export async function queue(): Promise<PgBoss> {
  const conn = await connection();
  const holder = globalThis as Holder;
  if (holder.__export_boss?.conn !== conn) {
    // Often first asked for by a request (an export, a bulk change, an import): the queue's timers
    // and polls outlive it, so they must not run in its scope (its abort would cancel them).
    const boss = outsideRequest(() => start(conn));
    holder.__export_boss = { conn, boss };
    boss.catch(() => {
      if (holder.__export_boss?.boss === boss) holder.__export_boss = undefined;
    });
  }
  return holder.__export_boss.boss;
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
    maintenanceIntervalSeconds: exportConfig.maintenanceSeconds,
  });
  boss.on("error", (error) => console.error("export queue:", error));
  // pg-boss creates its schema under a lock, but each queue and its partition without one: two
  // processes starting at once (web and worker, two workers) deadlock on a fresh database. One
  // process at a time, then; the others find everything created and go on at once.
  await conn.exclusive(START_LOCK, async () => {
    await boss.start();
    const deadLetters: Record<string, string> = { [EXPORT_QUEUE]: EXPORT_FAILED_QUEUE, [BULK_QUEUE]: BULK_FAILED_QUEUE, [IMPORT_QUEUE]: IMPORT_FAILED_QUEUE };
    for (const name of [EXPORT_FAILED_QUEUE, PURGE_QUEUE, EXPORT_QUEUE, BULK_FAILED_QUEUE, BULK_QUEUE, IMPORT_FAILED_QUEUE, IMPORT_QUEUE]) {
      await boss.createQueue(name, deadLetters[name] ? { name, deadLetter: deadLetters[name] } : { name });
    }
  });
  return boss;
}

/** Sends a job on the given connection (our transaction's), so it exists only if that commits. */
export async function sendExportJob(tx: Pick<SqlConnection, "executeSql">, exportId: string, jobId: string): Promise<string> {
  const boss = await queue();
  const data: ExportJobData = { exportId };
  const id = await boss.send(EXPORT_QUEUE, data, {
    ...exportJobOptions(jobId),
    db: { executeSql: (text: string, values: unknown[]) => tx.executeSql(text, values) },
  });
  if (!id) throw new Error("The job queue did not accept the export job.");
  return id;
}

/** Sends a bulk change's job on the given connection (our transaction's), like sendExportJob. */
export async function sendBulkJob(tx: Pick<SqlConnection, "executeSql">, bulkId: string, jobId: string): Promise<string> {
  const boss = await queue();
  const data: BulkJobData = { bulkId };
  const id = await boss.send(BULK_QUEUE, data, {
    ...exportJobOptions(jobId),
    deadLetter: BULK_FAILED_QUEUE,
    db: { executeSql: (text: string, values: unknown[]) => tx.executeSql(text, values) },
  });
  if (!id) throw new Error("The job queue did not accept the bulk change job.");
  return id;
}

/** Sends an import's job on the given connection (our transaction's), like sendExportJob. */
export async function sendImportJob(tx: Pick<SqlConnection, "executeSql">, importId: string, jobId: string): Promise<string> {
  const boss = await queue();
  const data: ImportJobData = { importId };
  const id = await boss.send(IMPORT_QUEUE, data, {
    ...exportJobOptions(jobId),
    deadLetter: IMPORT_FAILED_QUEUE,
    db: { executeSql: (text: string, values: unknown[]) => tx.executeSql(text, values) },
  });
  if (!id) throw new Error("The job queue did not accept the import job.");
  return id;
}

/** Stops the queue (graceful: running jobs get `timeoutSeconds` to finish). */
export async function stopQueue(timeoutSeconds = exportConfig.stopTimeoutSeconds): Promise<void> {
  const holder = globalThis as Holder;
  const current = holder.__export_boss;
  holder.__export_boss = undefined;
  if (!current) return;
  const boss = await current.boss.catch(() => null);
  await boss?.stop({ graceful: true, wait: true, close: false, timeout: timeoutSeconds * 1000 });
}
