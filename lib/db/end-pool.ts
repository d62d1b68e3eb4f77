import type pg from "pg";

/**
 * Ends a pg pool and returns once every connection it opened is closed. `pool.end()` alone
 * resolves as soon as it has asked its idle connections to end, while they may still be open on
 * the server: a `DROP DATABASE … WITH (FORCE)` right after then kills one, and its error (an
 * `error` event on the pool, with no listener) crashed the bulk loader.
 */
export async function endPool(pool: pg.Pool): Promise<void> {
  const open = pool.totalCount;
  let closed = 0;
  const allClosed = new Promise<void>((resolve) => {
    if (open === 0) return resolve();
    // The pool emits "remove" once a connection's end has completed (its socket closed).
    pool.on("remove", () => {
      if (++closed >= open) resolve();
    });
  });
  await pool.end();
  await allClosed;
}
