import type { PGlite, QueryOptions, Results } from "@electric-sql/pglite";
import { heavyUser } from "./scope";

// PGlite runs one statement at a time, inside the server's process, and nothing can stop a
// statement once it runs: every request waits for the statements queued before its own. One
// user's burst of heavy lists (each statement up to ~90 ms on 100,000 rows) could fill that queue
// and make every other request wait for all of them (2 s for another user's reads).
//
// So the statements of heavy work (lib/load/user-limit.ts `heavy`) do not go into PGlite's queue
// as they come: they wait here, per user, and one at a time is handed to PGlite, taking users in
// turn. Everything else (session checks, small lists, writes) goes to PGlite at once. Another
// request then waits for at most the one heavy statement running, and another user's heavy list
// for at most one statement of each user ahead of it.

type Waiting = { run: () => void };

export function fairPGlite(pglite: PGlite): PGlite {
  const queues = new Map<number, Waiting[]>();
  let busy = false;

  const next = () => {
    if (busy) return;
    // The user who has waited since longest goes first: Map keeps insertion order, and a user
    // served goes to the back (deleted and, if more waits, set again).
    for (const [user, queue] of queues) {
      const item = queue.shift();
      queues.delete(user);
      if (queue.length) queues.set(user, queue);
      if (item) {
        busy = true;
        item.run();
        return;
      }
    }
  };

  const query = <T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> => {
    const user = heavyUser();
    if (user === undefined) return pglite.query<T>(text, params, options);
    return new Promise<Results<T>>((resolve, reject) => {
      const queue = queues.get(user) ?? [];
      queue.push({
        run: () => {
          pglite
            .query<T>(text, params, options)
            .then(resolve, reject)
            .finally(() => {
              // The next heavy statement waits for the event loop's next turn: what arrived while
              // this one ran (other requests, their statements) goes first.
              setImmediate(() => {
                busy = false;
                next();
              });
            });
        },
      });
      queues.set(user, queue);
      next();
    });
  };

  // PGlite keeps its state in private fields: its own methods are called on itself.
  return new Proxy(pglite, {
    get(target, property) {
      if (property === "query") return query;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
