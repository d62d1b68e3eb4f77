import type { PGlite, QueryOptions, Results } from "@electric-sql/pglite";
import { heavyUser } from "./scope";

// PGlite runs one statement at a time and cannot stop one, so one user's burst of heavy lists
// would make every request wait. Heavy statements wait here per user and go to PGlite one at a
// time, users in turn; everything else goes at once (docs/decisions/0010-no-user-can-starve-the-others.md).

type Waiting = { run: () => void };

export function fairPGlite(pglite: PGlite): PGlite {
  const queues = new Map<number, Waiting[]>();
  let busy = false;

  const next = () => {
    if (busy) return;
    // The longest-waiting user first: Map keeps insertion order, and a user served goes to the back.
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
              // Wait a turn of the event loop, so what arrived meanwhile goes first.
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
