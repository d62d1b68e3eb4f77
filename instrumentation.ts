import type { Instrumentation } from "next";

// Node-only work lives in lib/server/startup.ts so the Edge bundle of this file stays free of Node APIs.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { checkEnvironment } = await import("./lib/server/startup");
  checkEnvironment();
  // Frees what React's render-completed abort reasons would otherwise keep (lib/framework-gaps/).
  (await import("./lib/framework-gaps/abort-reason-stacks")).releaseAbortReasonStacks();
  // Never during `next build`; JOB_WORKER=off leaves it to `npm run worker`.
  const { runsWorker } = await import("./lib/jobs/queue");
  if (runsWorker() && process.env.NEXT_PHASE !== "phase-production-build") {
    const { keepStartingJobWorker, stopJobWorker } = await import("./lib/jobs/worker");
    void keepStartingJobWorker(); // each failed start logged by the worker; the site keeps serving
    // A stopping server (SIGTERM, server.ts) lets the jobs it runs finish or hands them back.
    (await import("./lib/server/stopping")).beforeExit(() => stopJobWorker());
  }
}

/**
 * Next prints the stack of an error it catches while rendering (a page's error boundary shows its
 * digest); this line ties that digest to the request's id and route, without the stack again.
 */
export const onRequestError: Instrumentation.onRequestError = async (error, request, context) => {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { log } = await import("./lib/telemetry/log");
  const digest = (error as { digest?: unknown } | null)?.digest;
  const id = request.headers["x-request-id"];
  log.error(
    { request_id: typeof id === "string" ? id : undefined, route_file: context.routePath, kind: context.routeType, digest: typeof digest === "string" ? digest : undefined },
    "request failed in Next (its stack is Next's line with this digest)",
  );
};
