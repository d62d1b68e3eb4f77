// `npm run worker`: the subscriber export worker in a process of its own, for deployments that
// keep it apart from the web server (start the server with EXPORT_WORKER=off then). It needs
// DATABASE_URL (PostgreSQL): the embedded database can be opened by one process only, the server.
//
// SIGTERM/SIGINT stop it gracefully: no new jobs, the running export gets
// EXPORT_STOP_TIMEOUT_SECONDS to finish, else it is handed back to the queue for a later attempt.
import { ConfigError, config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { databaseTarget } from "@/lib/db/config";
import { closeConnection } from "@/lib/db/sql";
import { startExportWorker, stopExportWorker } from "@/lib/export/worker";

async function main() {
  try {
    config(); // every setting checked before anything starts
  } catch (error) {
    if (!ConfigError.is(error)) throw error;
    console.error(`export worker: refusing to start:\n${error.message}`);
    process.exit(1);
  }
  if (databaseTarget().kind !== "postgres") {
    console.error("The separate export worker needs DATABASE_URL (PostgreSQL); on the embedded database the server runs it.");
    process.exit(1);
  }
  process.env.EXPORT_WORKER = "on"; // this process works the queue whatever the web's setting
  await startExportWorker();
  console.log(`export worker: started (pid ${process.pid})`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`export worker: ${signal}, stopping…`);
    try {
      await stopExportWorker();
      await closeConnection();
      await (await db()).close();
      console.log("export worker: stopped");
      process.exit(0);
    } catch (error) {
      console.error("export worker: could not stop cleanly", error);
      process.exit(1);
    }
  };
  // pg-boss 10 does not await its own fail()/complete() calls: while the database is away one of
  // them can reject with nobody listening. Log it and keep working; the job expires and is retried.
  process.on("unhandledRejection", (reason) => console.error("export worker: unhandled rejection", reason));
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((error: unknown) => {
  console.error("export worker: could not start", error);
  process.exit(1);
});
