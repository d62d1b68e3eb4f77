import { processWide } from "@/lib/process-wide";

// Works around a memory leak of React Server Components under sustained load (React 19.3 canary
// bundled by Next 16.4; upstream: facebook/react#37288, fix proposed in #37289; Next:
// vercel/next.js#84648, #97434).
//
// At the end of every render React aborts its cache controller with
// `Error("This render completed successfully…")`, and Next aborts a few controllers of its own.
// V8 keeps an Error's stack as structured frames until `.stack` is read, and nothing reads these:
// the frames keep their receivers alive, among them the `Immediate` the abort ran in, whose
// async-context store is the whole finished render — and through the Immediate queue's links,
// the renders before it. Under continuous traffic the chain never breaks: measured here, the
// /branches page kept ~150 KB per request and resident memory grew by ~6 MB/s.
//
// Reading `.stack` once turns the frames into a string and lets them go. That is what this does
// for every abort reason, right after the abort. Remove once the bundled React stops capturing a
// stack for that reason (check with `npm run test:load`).

const done = processWide("abort-stacks", () => ({ released: false }));

export function releaseAbortReasonStacks() {
  if (done.released) return;
  done.released = true;
  const abort = AbortController.prototype.abort;
  AbortController.prototype.abort = function (this: AbortController, reason?: unknown) {
    abort.call(this, reason);
    const stored = this.signal.reason as { stack?: unknown } | undefined;
    if (stored !== null && typeof stored === "object") void stored.stack; // formats it; the frames are freed
  };
}
