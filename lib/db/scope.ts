import { AsyncLocalStorage } from "node:async_hooks";

// The abort signal of the request being served, seen by the database pool (lib/db/pool.ts): a
// statement started while serving a request whose client has gone away is cancelled in
// PostgreSQL instead of running on. Route handlers run inside `withQuerySignal` (lib/http/api.ts
// does it for every one); anything else (pages, scripts, the export worker) runs without.

const storage = new AsyncLocalStorage<AbortSignal>();

export function withQuerySignal<T>(signal: AbortSignal, run: () => Promise<T>): Promise<T> {
  return storage.run(signal, run);
}

export function querySignal(): AbortSignal | undefined {
  return storage.getStore();
}

const heavyUsers = new AsyncLocalStorage<number>();

/** Runs a user's heavy work (lib/load/user-limit.ts): its statements are scheduled fairly on PGlite (lib/db/pglite-fair.ts). */
export function withHeavyUser<T>(userId: number, run: () => Promise<T>): Promise<T> {
  return heavyUsers.run(userId, run);
}

/** The user whose heavy work issued the current statement, if any. */
export function heavyUser(): number | undefined {
  return heavyUsers.getStore();
}

/** What a statement of a request whose client went away rejects with, before it reaches PostgreSQL. */
export class ClientGoneError extends Error {
  constructor() {
    super("The client closed the request; its statement was not run.");
    this.name = "ClientGoneError";
  }
}
