import { BrandedError } from "@/lib/errors";
import { scopeSlot } from "@/lib/request-scope";

// The abort signal of the request being served, seen by raw statements on PostgreSQL
// (lib/db/pool.ts): a statement started while serving a request whose client has gone away is
// stopped in PostgreSQL instead of running on. server.ts runs every request inside `withQuerySignal` (its
// client gone is the response closed before it finished); route handlers run inside it again
// with their request's own signal (lib/http/api.ts, for the in-process tests too). Scripts and
// the job worker run without.
//
// The scope is one per process (lib/request-scope.ts): the pools are made by whichever layer of
// the build opens the database first (the in-process worker, from instrumentation), and must read
// the same scope that server.ts and the route wrapper fill. With one copy per layer, an aborted
// request's statements ran on in production until they finished.

const signals = scopeSlot<AbortSignal>("db.query-signal");

export function withQuerySignal<T>(signal: AbortSignal, run: () => Promise<T>): Promise<T> {
  return signals.run(signal, run);
}

export function querySignal(): AbortSignal | undefined {
  return signals.get();
}

const heavyUsers = scopeSlot<number>("db.heavy-user");

/** Runs a user's heavy work (lib/load/user-limit.ts): its statements are scheduled fairly on PGlite (lib/db/pglite-fair.ts). */
export function withHeavyUser<T>(userId: number, run: () => Promise<T>): Promise<T> {
  return heavyUsers.run(userId, run);
}

/** The user whose heavy work issued the current statement, if any. */
export function heavyUser(): number | undefined {
  return heavyUsers.get();
}

/**
 * Runs `run` outside any request's scope: what it starts that outlives the request (the job
 * queue's timers, a worker's loops) must not carry that request's abort signal or user, or its
 * statements would be cancelled with the request, or queued as that user's.
 */
export function outsideRequest<T>(run: () => T): T {
  return signals.run(undefined, () => heavyUsers.run(undefined, run));
}

/** What a statement of a request whose client went away rejects with, before it reaches PostgreSQL. */
export class ClientGoneError extends BrandedError {
  static readonly brand: string = "console.ClientGoneError";

  constructor(options?: ErrorOptions) {
    super("The client closed the request; its statement was not run, or was stopped.", options);
    this.name = "ClientGoneError";
  }
}
