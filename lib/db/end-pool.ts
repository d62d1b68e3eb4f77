import type pg from "pg";

/**
 * Ends a pg pool once every connection is closed: `pool.end()` resolves before that, and a
 * `DROP DATABASE … WITH (FORCE)` right after would kill one, an unhandled `error` event.
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
