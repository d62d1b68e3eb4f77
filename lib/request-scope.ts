import { AsyncLocalStorage } from "node:async_hooks";
import { processWide } from "@/lib/process-wide";

// What the request being served carries from one layer of the build to another, without being
// passed along: its abort signal (lib/db/scope.ts), the user whose heavy work runs (same), a
// bearer token's user (lib/auth/bearer.ts), a sign-in's attempt (lib/auth/sign-in.ts). Each is a
// slot of one AsyncLocalStorage, one per process (lib/process-wide.ts).
//
// One storage, not one per value: on Node 20 every storage in use copies its value onto every
// promise the process creates (async_hooks' init), a step per storage for each of the hundreds of
// promises of a page render. With four storages of our own beside Next's, that step took about a
// third more time than with Next's alone in a profile of /subscribers (bench/README.md, "What was
// changed after the record, bulk and toolbar work").

type Values = Readonly<Record<string, unknown>>;

const storage = processWide("request-scope", () => new AsyncLocalStorage<Values>());

export type ScopeSlot<T> = {
  /** The slot's value in the current scope, if any. */
  get(): T | undefined;
  /** Runs `run` with the slot set to `value` (undefined: unset), the other slots as they are. */
  run<R>(value: T | undefined, run: () => R): R;
};

/** A value of the request's scope; `name` must be unique among the slots. */
export function scopeSlot<T>(name: string): ScopeSlot<T> {
  return {
    get: () => storage.getStore()?.[name] as T | undefined,
    run: (value, run) => storage.run({ ...storage.getStore(), [name]: value }, run),
  };
}
