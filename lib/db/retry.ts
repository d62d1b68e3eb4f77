import { someError } from "@/lib/health/unavailable";

// A transaction PostgreSQL aborted to break a deadlock (or a serialization failure) did nothing:
// running it again is safe and is what the user wanted. Locks are taken in one order where the
// code can (rows by id, then duplicate keys: lib/trash/subscribers.ts), and this covers the rest
// (a row's edit deciding later duplicates while a batch holds them; docs/decisions/0031-trash.md).
// Transactions open through it, not their callers: lib/db/transaction.ts
// (docs/decisions/0035-deadlocks-retried-where-transactions-open.md, 0038-one-transaction-path.md).

/** A deadlock (40P01) or a serialization failure (40001), by the driver's code or Prisma's P2034. */
export function isRetryable(error: unknown): boolean {
  return someError(error, (v) => {
    const code = typeof v.code === "string" ? v.code : typeof v.originalCode === "string" ? v.originalCode : undefined;
    return code === "40P01" || code === "40001" || code === "P2034";
  });
}

/** Runs `transaction` again (after a short random pause) while PostgreSQL aborts it for a deadlock, at most `attempts` times. */
export async function retryingDeadlocks<T>(transaction: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= attempts || !isRetryable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
    }
  }
}
