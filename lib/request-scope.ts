import { AsyncLocalStorage } from "node:async_hooks";
import { processWide } from "@/lib/process-wide";

// What a request carries from one layer of the build to another without being passed along, as
// slots of one AsyncLocalStorage per process (lib/process-wide.ts). One storage, not one per value:
// each storage in use costs a step on every promise the process creates (bench/README.md).

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
