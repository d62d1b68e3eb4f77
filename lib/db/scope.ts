import { BrandedError } from "@/lib/errors";
import { scopeSlot } from "@/lib/request-scope";

// The current request's abort signal, so raw statements of a request whose client went away are
// stopped (lib/db/pool.ts). Filled by server.ts and the route wrapper; process-wide, since the
// pools may be made by another copy of this module (docs/decisions/0016-one-process-many-copies.md).

const signals = scopeSlot<AbortSignal>("db.query-signal");

export const withQuerySignal = <T>(signal: AbortSignal, run: () => Promise<T>): Promise<T> => signals.run(signal, run);

export const querySignal = (): AbortSignal | undefined => signals.get();

const heavyUsers = scopeSlot<number>("db.heavy-user");

/** Runs a user's heavy work (lib/load/user-limit.ts): its statements are scheduled fairly on PGlite (lib/db/pglite-fair.ts). */
export const withHeavyUser = <T>(userId: number, run: () => Promise<T>): Promise<T> => heavyUsers.run(userId, run);

/** The user whose heavy work issued the current statement, if any. */
export const heavyUser = (): number | undefined => heavyUsers.get();

/** Runs `run` outside the request's scope: what outlives the request must not be cancelled with it or queued as its user's. */
export const outsideRequest = <T>(run: () => T): T => signals.run(undefined, () => heavyUsers.run(undefined, run));

/** What a statement of a request whose client went away rejects with, before it reaches PostgreSQL. */
export class ClientGoneError extends BrandedError {
  static readonly brand: string = "console.ClientGoneError";

  constructor(options?: ErrorOptions) {
    super("The client closed the request; its statement was not run, or was stopped.", options);
    this.name = "ClientGoneError";
  }
}
