// Everything global to the process, in one module, each with why the framework leaves no other way
// (docs/decisions/0016-one-process-many-copies.md, 0007-abort-reason-stacks.md, 0020-policy-one-place-per-concern.md).
// Not "server-only": scripts, the proxy and server.ts use it.

// 1. State shared by every copy of a module: Next compiles a module once per layer of the build, so
// top-level state exists once per copy; a Symbol.for key is the same in every copy. Hold plain data
// or Node's and packages' classes only, never a class of the console's (lib/errors.ts says why).

export function processWide<T>(name: string, make: () => T): T {
  const key = Symbol.for(`console.${name}`);
  const holder = globalThis as { [key: symbol]: unknown };
  if (!(key in holder)) holder[key] = make();
  return holder[key] as T;
}

// 2. The one patch of a platform method: an abort reason's unread stack keeps the finished React
// render alive, and no option of React or Next reaches those controllers. A workaround: remove it
// when upstream is fixed (docs/decisions/0007-abort-reason-stacks.md says how to check).

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
