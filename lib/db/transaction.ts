import type { Prisma } from "@/lib/generated/prisma/client";
import { prisma } from "./client";
import { retryingDeadlocks } from "./retry";

// The one way a unit of work runs in a Prisma transaction, as connection().transaction is for raw
// statements: run again from the start when PostgreSQL aborts it to break a deadlock (an aborted
// attempt changed nothing). So the work does nothing outside the transaction that a second run
// would repeat (a job is queued with the transaction, a file written after it), and writes its
// audit event in it: `audit(tx, …)` (docs/decisions/0035-deadlocks-retried-where-transactions-open.md).

export type Tx = Prisma.TransactionClient;

/** Prisma's limits of an interactive transaction, in milliseconds (its defaults: 2 s to start, 5 s to run). */
export type TransactionOptions = { maxWait?: number; timeout?: number };

/** Runs `work` in one transaction, committed when it returns; again, up to a few times, while PostgreSQL aborts it for a deadlock. */
export async function transaction<T>(work: (tx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T> {
  const db = await prisma();
  return retryingDeadlocks(() => db.$transaction(work, options));
}
