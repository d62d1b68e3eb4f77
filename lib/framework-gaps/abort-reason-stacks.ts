import { processWide } from "@/lib/process-wide";

// The one patch of a platform method: an abort reason's unread stack keeps the finished React
// render alive, and no option of React or Next reaches those controllers (README.md here: when to
// remove it; docs/decisions/0007-abort-reason-stacks.md).

/** Installs the abort patch, once per process (instrumentation.ts calls it at start). */
export function releaseAbortReasonStacks() {
  const installed = processWide("abort-reason-stacks", () => ({ done: false }));
  if (installed.done) return;
  installed.done = true;
  // Every reason's stack is formatted now: a served build does it without source maps (tsx turns
  // them on), as `next start` would.
  if (process.env.NODE_ENV === "production") process.setSourceMapsEnabled(false);
  const abort = AbortController.prototype.abort;
  AbortController.prototype.abort = function (this: AbortController, reason?: unknown) {
    abort.call(this, reason);
    const stored = this.signal.reason as { stack?: unknown } | undefined;
    if (stored !== null && typeof stored === "object") void stored.stack; // formats it; the frames are freed
  };
}
