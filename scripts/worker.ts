// `npm run worker`: the job worker (exports, imports, bulk changes) in a process of its own, for
// deployments that keep it apart from the web server (start the server with JOB_WORKER=off then).
// It needs DATABASE_URL (PostgreSQL): the embedded database can be opened by one process only, the
// server.
//
// SIGTERM/SIGINT stop it gracefully: no new jobs, the running jobs get SHUTDOWN_TIMEOUT_SECONDS
// (JOB_STOP_TIMEOUT_SECONDS when set) to finish, else they are handed back to the queue for a later attempt.
import { ConfigError, config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { databaseTarget } from "@/lib/db/config";
import { closeConnection } from "@/lib/db/sql";
import { startJobWorker, stopJobWorker } from "@/lib/jobs/worker";
import { log, logError } from "@/lib/telemetry/log";
import { serveWorkerMetrics } from "@/lib/telemetry/worker-metrics";

async function main() {
  try {
    config(); // every setting checked before anything starts
  } catch (error) {
    if (!ConfigError.is(error)) throw error;
    log.fatal(`job worker: refusing to start:\n${error.message}`);
    process.exit(1);
  }
  if (databaseTarget().kind !== "postgres") {
    log.fatal("The separate job worker needs DATABASE_URL (PostgreSQL); on the embedded database the server runs it.");
    process.exit(1);
  }
  process.env.JOB_WORKER = "on"; // this process works the queue whatever the web's setting
  const started: { metrics?: ReturnType<typeof serveWorkerMetrics> } = {};
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`job worker: ${signal}, stopping…`);
    started.metrics?.close();
    try {
      // Waits for a start still under way: the jobs it already took are finished or handed back too.
      await stopJobWorker();
      await closeConnection();
      await (await db()).close();
      log.info("job worker: stopped");
      process.exit(0);
    } catch (error) {
      logError(error, "job worker: could not stop cleanly");
      process.exit(1);
    }
  };
  // pg-boss 10 does not await its own fail()/complete() calls: while the database is away one of
  // them can reject with nobody listening. Log it and keep working; the job expires and is retried.
  process.on("unhandledRejection", (reason) => logError(reason, "job worker: unhandled rejection"));
  // Before the start: a worker stopped while it starts may already hold a job.
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  await startJobWorker();
  if (stopping) return;
  log.info("job worker: started");
  started.metrics = serveWorkerMetrics();
}

main().catch((error: unknown) => {
  logError(error, "job worker: could not start");
  process.exit(1);
});
