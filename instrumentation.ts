// Runs once when the server starts. Node-only work lives in lib/server/startup.ts so the Edge
// bundle of this file stays free of Node APIs.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { checkEnvironment } = await import("./lib/server/startup");
  checkEnvironment();
  // Frees what React's render-completed abort reasons would otherwise keep (lib/process-wide.ts).
  (await import("./lib/process-wide")).releaseAbortReasonStacks();
  // The subscriber export worker runs in this process unless EXPORT_WORKER=off (then run
  // `npm run worker` apart); never during `next build`.
  const { runsWorker } = await import("./lib/export/queue");
  if (runsWorker() && process.env.NEXT_PHASE !== "phase-production-build") {
    const { startExportWorker } = await import("./lib/export/worker");
    startExportWorker().catch(() => {}); // logged by the worker; the site keeps serving
  }
}
