// Node-only work lives in lib/server/startup.ts so the Edge bundle of this file stays free of Node APIs.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { checkEnvironment } = await import("./lib/server/startup");
  checkEnvironment();
  // Frees what React's render-completed abort reasons would otherwise keep (lib/process-wide.ts).
  (await import("./lib/process-wide")).releaseAbortReasonStacks();
  // Never during `next build`; JOB_WORKER=off leaves it to `npm run worker`.
  const { runsWorker } = await import("./lib/jobs/queue");
  if (runsWorker() && process.env.NEXT_PHASE !== "phase-production-build") {
    const { startJobWorker } = await import("./lib/jobs/worker");
    startJobWorker().catch(() => {}); // logged by the worker; the site keeps serving
  }
}
