// Everything the console makes global to its process, in one module, each with why the framework
// leaves no other way (docs/decisions/0016-one-process-many-copies.md, 0007-abort-reason-stacks.md).
// Not "server-only": scripts, the proxy and server.ts use it.

// 1. State shared by every copy of a module.
//
// Next compiles a module once per layer of the build that imports it (pages and actions, route
// handlers, instrumentation, the proxy), and server.ts loads its own: state made at a module's top
// level exists once per copy. Context that one layer sets and another reads (a request's abort
// signal, the user whose heavy work runs, a bearer token's user), counts meant for the whole
// process (a token's requests per minute) and the process's one-of-a-kind objects (the database
// and its connections, the file store, the job queue and its worker, the outage sentinel) live
// here instead, on globalThis under a Symbol.for key, which is the same key in every copy; no
// other module keeps state on globalThis itself. What such a value holds must not depend on which
// copy made it: plain data, Node's or a package's own classes, never a class of the console's
// (lib/errors.ts says why).

export function processWide<T>(name: string, make: () => T): T {
  const key = Symbol.for(`console.${name}`);
  const holder = globalThis as { [key: symbol]: unknown };
  if (!(key in holder)) holder[key] = make();
  return holder[key] as T;
}

// 2. The one patch of a platform method: AbortController.prototype.abort.
//
// It works around a memory leak of React Server Components under sustained load (upstream:
// facebook/react#37288, fix proposed in #37289; vercel/next.js#84648, #97434). At the end of every
// render React aborts its cache controller with `Error("This render completed successfully…")`,
// and Next aborts a few controllers of its own. V8 keeps an Error's stack as structured frames
// until `.stack` is read, and nothing reads these: the frames keep their receivers alive, among
// them the `Immediate` the abort ran in, whose async-context store is the whole finished render,
// and through the Immediate queue's links the renders before it. Reading `.stack` once turns the
// frames into a string and lets them go; this does so for every abort reason, right after the
// abort. No option of React or Next reaches those controllers, hence a patch.
//
// Remove it once the React bundled by Next stops capturing a stack for that reason: check on
// every Next or React upgrade with `npm run test:load` (resident memory flat after warm-up
// without it) and tests/unit/abort-stacks.test.ts.

/** Installs the abort patch, once per process (instrumentation.ts calls it at start). */
export function releaseAbortReasonStacks() {
  const installed = processWide("abort-reason-stacks", () => ({ done: false }));
  if (installed.done) return;
  installed.done = true;
  const abort = AbortController.prototype.abort;
  AbortController.prototype.abort = function (this: AbortController, reason?: unknown) {
    abort.call(this, reason);
    const stored = this.signal.reason as { stack?: unknown } | undefined;
    if (stored !== null && typeof stored === "object") void stored.stack; // formats it; the frames are freed
  };
}
