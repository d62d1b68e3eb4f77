import "server-only";
import crypto from "node:crypto";
import { auditStatement, jobAuditStatement } from "@/lib/audit/log";
import type { SessionUser } from "@/lib/auth/permissions";
import { config } from "@/lib/config";
import { connection, query, sql, type Queryable, type Statement } from "@/lib/db/sql";
import { AppError, notFound } from "@/lib/errors";
import { newJobId } from "@/lib/jobs/ids";
import { queue, sendJob } from "@/lib/jobs/queue";
import { parseWith } from "@/lib/list/params";
import { heavy } from "@/lib/load/user-limit";
import { whereClause } from "@/lib/list/sql";
import { keysNotIn } from "@/lib/validation/common";
import { BULK_FILTER_NAMES, MAX_SELECTION, type BulkChange, type BulkTarget } from "./bulk-schema";
import { lockBesideImports, lockKeySets } from "./duplicates";
import { reevaluateLater } from "./edit";
import { subscriberFilterOnlySchema } from "./filters";
import { subscriberConditions } from "./where";

// A change of many subscribers at once: their status, their mandatory flag, or (administrators)
// deleting them; either a selection of ids or every subscriber matching the list's filters.
//
// A selection, and up to BULK_INLINE_MAX rows matching filters, run at once, in one transaction.
// Beyond, it is a background job (lib/jobs): batches of BULK_BATCH_SIZE rows in id
// order, each its own short transaction that also records how far it got (`last_id`), so no
// statement holds rows for long and a job retried after a crash goes on after the last batch
// done, never changing a row twice. Either way, one audit event (docs/decisions/0014) says what
// changed: a selection's the ids it changed, a change by filters its filters; the change, and the
// count of rows it went through. The trigger-kept counts follow every batch. A deletion makes
// later subscribers that matched the deleted ones stop being duplicates: at once (at most 100
// rows), in its transaction; as a job, its batches only delete, and after the last one the
// flagged subscribers are decided again in short transactions of their own (decision 15).

/**
 * The filters of a target, checked by the list's own parser (400 naming the bad one). Whoever
 * calls (the action parsed the target already; the job reads it back from its row), a name that
 * is not a filter is refused: own keys against a Set, never `in`, which takes "constructor" or
 * "toString" for a filter that would then be dropped, widening the change to every subscriber.
 */
function targetFilters(target: Extract<BulkTarget, { filters: unknown }>) {
  const unknown = keysNotIn(target.filters, BULK_FILTER_NAMES);
  if (unknown.length) throw new AppError(400, "invalid_input", `Not a filter: ${unknown.map((k) => k.slice(0, 40)).join(", ")}.`);
  const known = Object.fromEntries(Object.entries(target.filters).filter(([k]) => k !== "page" && k !== "sort"));
  const parsed = parseWith(subscriberFilterOnlySchema, known);
  if (!parsed.ok) throw new AppError(400, "invalid_input", parsed.message, parsed.fields);
  return { raw: known, values: parsed.value };
}

/** The target's condition over `subscribers s`. */
function targetConditions(target: BulkTarget): Statement[] {
  if ("ids" in target) return [sql`s.id = ANY(${target.ids}::int[])`];
  return subscriberConditions(targetFilters(target).values);
}

/**
 * How many subscribers the target names: a count with the list's filters, as costly as the list's
 * own total, so it is bounded like the list's (callers run it within the user's limit, `heavy`).
 * On the app's connections: their statement timeout, one core, a bounded wait for a connection,
 * cancelled with its request; not on the export's few, shared with the worker and imports.
 */
export async function countTarget(target: BulkTarget): Promise<number> {
  const [row] = await query<{ n: number }>(sql`SELECT count(*)::int AS n FROM subscribers s ${whereClause(targetConditions(target))}`);
  return row?.n ?? 0;
}

/** A change of a batch: how many rows it went through, and the ids whose values it changed. */
type BatchResult = { matched: number; changed: number[] };

/**
 * Applies the change to these ids (one batch, in the caller's transaction). A deletion locks the
 * duplicate keys of the deleted rows as creation locks them; with `decideAgain`, the later
 * subscribers that matched them are decided again in the same transaction (a change made at
 * once); a job does that after its last batch instead (clearStaleDuplicates).
 */
async function applyBatch(tx: Queryable, ids: number[], change: BulkChange, { decideAgain }: { decideAgain: boolean }): Promise<BatchResult> {
  if (ids.length === 0) return { matched: 0, changed: [] };
  const changedIds = (rows: { id: number }[]) => rows.map((r) => r.id).sort((a, b) => a - b);
  if ("subscription_status" in change) {
    const rows = await tx.query<{ id: number }>(sql`UPDATE subscribers SET subscription_status = ${change.subscription_status}::"SubscriptionStatus", updated_at = now()
      WHERE id = ANY(${ids}::int[]) AND subscription_status <> ${change.subscription_status}::"SubscriptionStatus" RETURNING id`);
    return { matched: ids.length, changed: changedIds(rows) };
  }
  if ("is_mandatory" in change) {
    const rows = await tx.query<{ id: number }>(sql`UPDATE subscribers SET is_mandatory = ${change.is_mandatory}, updated_at = now()
      WHERE id = ANY(${ids}::int[]) AND is_mandatory <> ${change.is_mandatory} RETURNING id`);
    return { matched: ids.length, changed: changedIds(rows) };
  }
  const keys = await tx.query<{ email: string; mobile: string }>(sql`SELECT lower(email) AS email, mobile FROM subscribers WHERE id = ANY(${ids}::int[])`);
  const emails = keys.map((k) => k.email);
  const mobiles = keys.map((k) => k.mobile);
  await lockKeySets(tx, emails, mobiles);
  const deleted = await tx.query<{ id: number }>(sql`DELETE FROM subscribers WHERE id = ANY(${ids}::int[]) RETURNING id`);
  if (decideAgain && deleted.length) await reevaluateLater(tx, Math.min(...ids), emails, mobiles);
  return { matched: deleted.length, changed: changedIds(deleted) };
}

/**
 * Rows per transaction when duplicate flags are decided again. Smaller than a deletion's batch:
 * deleting a row leaves its index entries for VACUUM, but changing its flag writes a new version
 * of the row into every index of the table (nineteen, four of them trigram indexes): 2,000 of them
 * held their locks for 1.4–1.9 s on the benchmark's 300,000 subscribers (bench/README.md).
 */
const REDECISION_BATCH = 250;

/**
 * After deletions: every subscriber flagged as a duplicate, after id `after`, whose earlier match
 * (same email, case ignored, or same mobile) is gone, is no longer one. A deletion can only take
 * flags away, so the flagged subscribers are all there is to look at (an index on (is_duplicate,
 * id) finds them in order). In batches of REDECISION_BATCH, each its own transaction holding the
 * keys of its rows locked as creation and edits lock them: a concurrent edit that gives an earlier
 * subscriber one of those keys decides the row itself, before or after. A row whose keys changed
 * since they were read (an edit of it) was decided by that edit and is left alone. Returns how
 * many flags it took away.
 */
export async function clearStaleDuplicates(after: number, signal?: AbortSignal, onBatch?: () => void): Promise<number> {
  const conn = await connection();
  const size = Math.min(config().BULK_BATCH_SIZE, REDECISION_BATCH);
  let cursor = after;
  let cleared = 0;
  for (;;) {
    signal?.throwIfAborted();
    const step = await conn.transaction(async (tx) => {
      // Shared with creations and edits, exclusive to an import's insert: rows an import decided
      // while the deleted subscribers still existed are committed (and seen) before this reads.
      await lockBesideImports(tx);
      const rows = await tx.query<{ id: number; email: string; mobile: string }>(sql`
        SELECT id, lower(email) AS email, mobile FROM subscribers WHERE is_duplicate AND id > ${cursor} ORDER BY id LIMIT ${size}`);
      if (rows.length === 0) return null;
      await lockKeySets(tx, rows.map((r) => r.email), rows.map((r) => r.mobile));
      const done = await tx.query<{ id: number }>(sql`
        UPDATE subscribers s SET is_duplicate = false
          FROM unnest(${rows.map((r) => r.id)}::int[], ${rows.map((r) => r.email)}::text[], ${rows.map((r) => r.mobile)}::text[]) AS k(id, email, mobile)
         WHERE s.id = k.id AND s.is_duplicate AND lower(s.email) = k.email AND s.mobile = k.mobile
           AND NOT EXISTS (SELECT 1 FROM subscribers e WHERE lower(e.email) = k.email AND e.id < k.id)
           AND NOT EXISTS (SELECT 1 FROM subscribers e WHERE e.mobile = k.mobile AND e.id < k.id)
        RETURNING s.id`);
      return { next: rows[rows.length - 1]!.id, cleared: done.length };
    });
    if (!step) return cleared;
    cursor = step.next;
    cleared += step.cleared;
    onBatch?.();
  }
}

/**
 * Whether a change of `total` rows runs at once (else as a job): a selection always does; a
 * deletion at once decides duplicates again in its own transaction, so it stays as small as one.
 */
export function runsAtOnce(target: BulkTarget, change: BulkChange, total: number): boolean {
  if ("ids" in target) return true;
  return total <= ("delete" in change ? Math.min(config().BULK_INLINE_MAX, MAX_SELECTION) : config().BULK_INLINE_MAX);
}

export type BulkRequestResult = { kind: "done"; count: number } | { kind: "queued"; id: string; total: number };

/**
 * Runs or queues a bulk change for `user`. The guard of the caller decides who may call it; the
 * deletion is checked here too (administrators only), whatever the caller.
 */
export async function requestBulkChange(user: SessionUser, target: BulkTarget, change: BulkChange): Promise<BulkRequestResult> {
  if ("delete" in change && user.role !== "admin") throw new AppError(403, "forbidden", "Only administrators delete subscribers.");
  const total = await heavy(user.id, () => countTarget(target));
  if (total === 0) throw new AppError(400, "nothing_matches", "No subscriber matches: nothing would change.");
  const conn = await connection();
  const where = whereClause(targetConditions(target));

  // A selection (at most MAX_SELECTION rows) always runs at once: its event names the subscribers.
  if ("ids" in target || runsAtOnce(target, change, total)) {
    const count = await conn.transaction(async (tx) => {
      const ids = (await tx.query<{ id: number }>(sql`SELECT s.id FROM subscribers s ${where} ORDER BY s.id`)).map((r) => r.id);
      const { matched, changed } = await applyBatch(tx, ids, change, { decideAgain: true });
      // A selection records the subscribers whose values it changed (each once; none that did not
      // exist, so a later subscriber given such an id never shows this change in its history).
      const what = "ids" in target ? { ids: changed } : { filters: targetFilters(target).raw };
      await tx.query(await auditStatement({ action: "subscriber.bulk_change", actor: user, entity: "bulk_change", after: { ...what, change, count: matched } }));
      return matched;
    });
    return { kind: "done", count };
  }
  await queue(); // started outside the transaction: on PGlite that holds the only connection
  const id = newJobId();
  const jobId = crypto.randomUUID();
  await conn.transaction(async (tx) => {
    await tx.query(sql`INSERT INTO bulk_changes (id, user_id, target, change, total_rows, job_id)
      VALUES (${id}, ${user.id}, ${JSON.stringify({ filters: targetFilters(target).raw })}::jsonb, ${JSON.stringify(change)}::jsonb, ${total}, ${jobId})`);
    await sendJob(tx, { kind: "bulk", id, userId: user.id }, jobId);
  });
  return { kind: "queued", id, total };
}

type BulkRow = { id: string; user_id: number; status: string; target: BulkTarget; change: BulkChange; total_rows: number; processed_rows: number; last_id: number };

/** One attempt of a bulk change job: batches in id order from where the last attempt stopped. */
export async function runBulkChange(
  bulkId: string,
  signal?: AbortSignal,
  /** After each transaction is committed (its batches, then a deletion's re-decisions), with the rows done so far. */
  onBatch?: (processed: number) => void,
): Promise<{ processed: number } | { skipped: string }> {
  const conn = await connection();
  const [row] = await conn.query<BulkRow>(sql`SELECT id, user_id, status::text AS status, target, change, total_rows, processed_rows, last_id
    FROM bulk_changes WHERE id = ${bulkId}`);
  if (!row) return { skipped: "the bulk change no longer exists" };
  if (row.status !== "in_queue" && row.status !== "running") return { skipped: `the bulk change is ${row.status}` };
  await conn.query(sql`UPDATE bulk_changes SET status = 'running' WHERE id = ${bulkId} AND status = 'in_queue'`);
  const where = targetConditions(row.target);
  const size = config().BULK_BATCH_SIZE;
  const deleting = "delete" in row.change;
  // An earlier attempt may have deleted rows whose later duplicates it never decided again.
  const resumed = row.status === "running";
  let firstDeleted: number | null = null;
  let { last_id: last, processed_rows: processed } = row;
  for (;;) {
    signal?.throwIfAborted();
    const done = await conn.transaction(async (tx) => {
      const ids = (await tx.query<{ id: number }>(sql`SELECT s.id FROM subscribers s ${whereClause([...where, sql`s.id > ${last}`])} ORDER BY s.id LIMIT ${size}`)).map((r) => r.id);
      if (ids.length === 0) return null;
      const { matched, changed } = await applyBatch(tx, ids, row.change, { decideAgain: false });
      const next = ids[ids.length - 1]!;
      await tx.query(sql`UPDATE bulk_changes SET last_id = ${next}, processed_rows = processed_rows + ${matched} WHERE id = ${bulkId}`);
      return { next, matched, first: changed[0] ?? null };
    });
    if (!done) break;
    last = done.next;
    processed += done.matched;
    firstDeleted ??= done.first;
    onBatch?.(processed);
  }
  // A deletion's batches only delete (short transactions, whatever the duplicates); then the
  // subscribers after the first one deleted that lost their earlier match stop being duplicates.
  // From the start when an attempt before this one may have deleted some.
  if (deleting && (resumed || firstDeleted !== null)) {
    await clearStaleDuplicates(resumed ? 0 : firstDeleted!, signal, () => onBatch?.(processed));
  }
  await conn.transaction(async (tx) => {
    await tx.query(sql`UPDATE bulk_changes SET status = 'completed', completed_at = now() WHERE id = ${bulkId}`);
    await tx.query(
      jobAuditStatement({
        action: "subscriber.bulk_change",
        userId: row.user_id,
        job: "bulk change job",
        entity: "bulk_change",
        entityId: bulkId,
        after: { ...row.target, change: row.change, count: processed },
      }),
    );
  });
  return { processed };
}

/**
 * The last attempt failed: the bulk change is failed, with the batches already done kept. The
 * rows those batches changed are audited in the same transaction as the status (the completed
 * job's event is never written): its filters, the change, how many rows it went through, and
 * that it failed, with why.
 */
export async function markBulkFailed(bulkId: string, message: string): Promise<boolean> {
  const conn = await connection();
  const error = message.slice(0, 500);
  // A deletion that stopped part-way: the subscribers its batches left without their earlier
  // match stop being duplicates, as when it completes (if the database lets us: it is failing).
  const [state] = await conn.query<{ status: string; deleting: boolean }>(sql`SELECT status::text AS status, (change -> 'delete') IS NOT NULL AS deleting FROM bulk_changes WHERE id = ${bulkId}`);
  let decided: boolean | undefined;
  if (state?.deleting && state.status === "running") {
    decided = await clearStaleDuplicates(0).then(
      () => true,
      (cause: unknown) => {
        console.error(`bulk change ${bulkId}: duplicate flags not decided again after the failure`, cause);
        return false;
      },
    );
  }
  return conn.transaction(async (tx) => {
    const [row] = await tx.query<Pick<BulkRow, "user_id" | "target" | "change" | "processed_rows" | "total_rows">>(sql`
      UPDATE bulk_changes SET status = 'failed', error = ${error}
       WHERE id = ${bulkId} AND status IN ('in_queue', 'running')
      RETURNING user_id, target, change, processed_rows, total_rows`);
    if (!row) return false;
    await tx.query(
      jobAuditStatement({
        action: "subscriber.bulk_change",
        userId: row.user_id,
        job: "bulk change job",
        entity: "bulk_change",
        entityId: bulkId,
        after: {
          ...row.target,
          change: row.change,
          count: row.processed_rows,
          total: row.total_rows,
          status: "failed",
          error,
          ...(decided === undefined ? {} : { duplicates_decided_again: decided }),
        },
      }),
    );
    return true;
  });
}

export type BulkStatus = {
  id: string;
  status: "in_queue" | "running" | "completed" | "failed";
  change: BulkChange;
  target: { ids: number[] } | { filters: Record<string, string> };
  total_rows: number;
  processed_rows: number;
  error: string | null;
  created_at: Date;
  completed_at: Date | null;
};

/** A bulk change of `userId`'s; anyone else's is the same 404 as none. */
export async function bulkStatus(userId: number, bulkId: string): Promise<BulkStatus> {
  const conn = await connection();
  const [row] = await conn.query<BulkStatus>(sql`SELECT id, status::text AS status, change, target, total_rows, processed_rows, error, created_at, completed_at
    FROM bulk_changes WHERE id = ${bulkId} AND user_id = ${userId}`);
  if (!row) throw notFound("The bulk change");
  return row;
}
