import { Prisma } from "@/lib/generated/prisma/client";
import { auditStatement, type AnyAuditEntry } from "@/lib/audit/log";
import { config } from "@/lib/config";
import { conflict, notFound, type NotFoundWhat } from "@/lib/errors";
import { db } from "./client";
import { retryingDeadlocks } from "./retry";
import { within, type Queryable } from "./sql";
import { recordAuditedEvent } from "@/lib/webhooks/from-audit";

// The one way a unit of work writes (docs/decisions/0038-one-transaction-path.md): Prisma's
// interactive transaction, run again from the start when PostgreSQL aborts it to break a deadlock
// (an aborted attempt changed nothing; 0035). So the work does nothing outside the transaction that
// a second run would repeat (a job is queued with the transaction, a file written after it), and
// writes its audit event in it: `tx.audit(…)`.

/** Prisma's transaction with its models, raw statements (`tx.query(sql…)`), pg-boss's `db` and the audit log in the same transaction. */
export type Tx = Prisma.TransactionClient &
  Queryable & {
    /** pg-boss's `db` interface, so a job is queued in the transaction (lib/jobs/queue.ts). */
    executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
    /** Writes one audit event in this transaction. */
    audit(entry: AnyAuditEntry): Promise<void>;
  };

// pg-boss passes its job's data as an object, which pg turns into JSON; Prisma's raw values do not.
const value = (v: unknown) => (v !== null && typeof v === "object" && !(v instanceof Date) && !Array.isArray(v) ? JSON.stringify(v) : v);

function unitOf(tx: Prisma.TransactionClient): Tx {
  const { query } = within(tx);
  const extra: Omit<Tx, keyof Prisma.TransactionClient> = {
    query,
    executeSql: async (text, values = []) => ({ rows: await tx.$queryRawUnsafe<unknown[]>(text, ...values.map(value)) }),
    // The change's webhook event goes with its audit event: every write has one (docs/decisions/0045-webhooks.md).
    audit: async (entry) => {
      await query(await auditStatement(entry));
      await recordAuditedEvent(unit, entry);
    },
  };
  const unit = new Proxy(tx, { get: (target, key, receiver) => (key in extra ? extra[key as keyof typeof extra] : Reflect.get(target, key, receiver)) }) as Tx;
  return unit;
}

/**
 * Runs `work` in one transaction (10 s to start, 20 s to run), committed when it returns; again, up to a few times, while PostgreSQL
 * aborts it for a deadlock. `job`: a background job's, which may run as long as the job's attempt and whose statements have no
 * statement_timeout, the request's bound (an import's insert, a batch waiting for it).
 */
export async function transaction<T>(work: (tx: Tx) => Promise<T>, { job = false } = {}): Promise<T> {
  const database = await db();
  const timeout = job ? Math.min(config().JOB_EXPIRE_SECONDS * 1000, 2 ** 31 - 1) : 20_000;
  return retryingDeadlocks(async () => {
    // PGlite runs synchronously in-process: without a turn of the event loop, back-to-back batches would starve requests and timers.
    if (database.pglite) await new Promise((resolve) => setImmediate(resolve));
    return database.prisma.$transaction(
      async (tx) => {
        if (job) await tx.$executeRawUnsafe("SET LOCAL statement_timeout = 0");
        return work(unitOf(tx));
      },
      { maxWait: 10_000, timeout },
    );
  });
}

/** Prisma's refusals of a write as their answers: a unique index's (P2002) a 409 on `field`, a row gone (P2025) the 404 of `what`. */
export const refusedWrite = (what: NotFoundWhat, field: string, taken: string) => (error: unknown): never => {
  const code = error instanceof Prisma.PrismaClientKnownRequestError ? error.code : undefined;
  if (code === "P2002") throw conflict(taken, { [field]: [taken] });
  if (code === "P2025") throw notFound(what);
  throw error;
};
