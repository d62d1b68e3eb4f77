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
import { decideDuplicates, hasEarlierMatch, lockBesideImports, lockKeySets } from "./duplicates";
import { subscriberFilterOnlySchema } from "./filters";
import { subscriberConditions, subscriberScope } from "./where";
import { branchScopeOfUser, type BranchScope } from "@/lib/auth/scope";
import { logError } from "@/lib/telemetry/log";

// Bulk changes of status, mandatory flag or (admins) deletion: small ones at once in one
// transaction, larger ones as a resumable job in id-ordered batches, one audit event either way
// (docs/decisions/0014-bulk-changes-in-the-audit-log.md, 0015-bulk-deletion-decides-duplicates-after.md).

/** The target's filters, by the list's parser; unknown names refused by own keys, never `in` (an inherited name would widen the change to everyone). */
function targetFilters(target: Extract<BulkTarget, { filters: unknown }>) {
  const unknown = keysNotIn(target.filters, BULK_FILTER_NAMES);
  if (unknown.length) throw new AppError(400, "invalid_input", `Not a filter: ${unknown.map((k) => k.slice(0, 40)).join(", ")}.`);
  const known = Object.fromEntries(Object.entries(target.filters).filter(([k]) => k !== "page" && k !== "sort"));
  const parsed = parseWith(subscriberFilterOnlySchema, known);
  if (!parsed.ok) throw new AppError(400, "invalid_input", parsed.message, parsed.fields);
  return { raw: known, values: parsed.value };
}

/** The target's subscribers in the scope: ids of other branches are left out as unknown ids are. */
function targetConditions(scope: BranchScope, target: BulkTarget): Statement[] {
  if ("ids" in target) return [...subscriberScope(scope), sql`s.id = ANY(${target.ids}::int[])`];
  return subscriberConditions(scope, targetFilters(target).values);
}

/** Counts the target's subscribers; as costly as the list's total, so callers bound it with `heavy` (docs/decisions/0010-no-user-can-starve-the-others.md). */
export async function countTarget(scope: BranchScope, target: BulkTarget): Promise<number> {
  const [row] = await query<{ n: number }>(sql`SELECT count(*)::int AS n FROM subscribers s ${whereClause(targetConditions(scope, target))}`);
  return row?.n ?? 0;
}

/** A change of a batch: how many rows it went through, and the ids whose values it changed. */
type BatchResult = { matched: number; changed: number[] };

/** Applies the change to one batch in the caller's transaction; `decideAgain` only at once, a job re-decides after its last batch (0015). */
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
  if (decideAgain && deleted.length) await decideDuplicates(tx, emails, mobiles, Math.min(...ids));
  return { matched: deleted.length, changed: changedIds(deleted) };
}

// Smaller than a deletion's batch: a flag change rewrites every index entry, holding locks longer (bench/README.md).
const REDECISION_BATCH = 250;

/**
 * After deletions, clears the flag of duplicates after `after` whose earlier match is gone, in short
 * transactions locking keys as edits do; returns how many (docs/decisions/0015-bulk-deletion-decides-duplicates-after.md).
 */
export async function clearStaleDuplicates(after: number, signal?: AbortSignal, onBatch?: () => void): Promise<number> {
  const conn = await connection();
  const size = Math.min(config().BULK_BATCH_SIZE, REDECISION_BATCH);
  let cursor = after;
  let cleared = 0;
  for (;;) {
    signal?.throwIfAborted();
    const step = await conn.transaction(async (tx) => {
      // Waits for an import's insert, so rows it decided against the deleted subscribers are seen.
      await lockBesideImports(tx);
      const rows = await tx.query<{ id: number; email: string; mobile: string }>(sql`
        SELECT id, lower(email) AS email, mobile FROM subscribers WHERE is_duplicate AND id > ${cursor} ORDER BY id LIMIT ${size}`);
      if (rows.length === 0) return null;
      await lockKeySets(tx, rows.map((r) => r.email), rows.map((r) => r.mobile));
      // Deletions only clear flags: the rule decides each row whose keys are still those locked.
      const done = await tx.query<{ id: number }>(sql`
        UPDATE subscribers s SET is_duplicate = false
          FROM unnest(${rows.map((r) => r.id)}::int[], ${rows.map((r) => r.email)}::text[], ${rows.map((r) => r.mobile)}::text[]) AS k(id, email, mobile)
         WHERE s.id = k.id AND s.is_duplicate AND lower(s.email) = k.email AND s.mobile = k.mobile
           AND NOT ${hasEarlierMatch(sql`s`)}
        RETURNING s.id`);
      return { next: rows[rows.length - 1]!.id, cleared: done.length };
    });
    if (!step) return cleared;
    cursor = step.next;
    cleared += step.cleared;
    onBatch?.();
  }
}

/** Whether the change runs at once rather than as a job; a deletion at once stays within a selection's size. */
export function runsAtOnce(target: BulkTarget, change: BulkChange, total: number): boolean {
  if ("ids" in target) return true;
  return total <= ("delete" in change ? Math.min(config().BULK_INLINE_MAX, MAX_SELECTION) : config().BULK_INLINE_MAX);
}

export type BulkRequestResult = { kind: "done"; count: number } | { kind: "queued"; id: string; total: number };

/** Runs or queues a bulk change of the scope's subscribers; deletion is checked for admins here whatever the caller. */
export async function requestBulkChange(scope: BranchScope, user: SessionUser, target: BulkTarget, change: BulkChange): Promise<BulkRequestResult> {
  if ("delete" in change && user.role !== "admin") throw new AppError(403, "forbidden", "Only administrators delete subscribers.");
  const total = await heavy(user.id, () => countTarget(scope, target));
  if (total === 0) throw new AppError(400, "nothing_matches", "No subscriber matches: nothing would change.");
  const conn = await connection();
  const where = whereClause(targetConditions(scope, target));

  // A selection (at most MAX_SELECTION rows) always runs at once: its event names the subscribers.
  if ("ids" in target || runsAtOnce(target, change, total)) {
    const count = await conn.transaction(async (tx) => {
      const ids = (await tx.query<{ id: number }>(sql`SELECT s.id FROM subscribers s ${where} ORDER BY s.id`)).map((r) => r.id);
      const { matched, changed } = await applyBatch(tx, ids, change, { decideAgain: true });
      // Only ids that changed, so a later subscriber given a missing id never shows this in its history.
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
  /** After each committed transaction, with the rows done so far. */
  onBatch?: (processed: number) => void,
): Promise<{ processed: number } | { skipped: string }> {
  const conn = await connection();
  const [row] = await conn.query<BulkRow>(sql`SELECT id, user_id, status::text AS status, target, change, total_rows, processed_rows, last_id
    FROM bulk_changes WHERE id = ${bulkId}`);
  if (!row) return { skipped: "the bulk change no longer exists" };
  if (row.status !== "in_queue" && row.status !== "running") return { skipped: `the bulk change is ${row.status}` };
  await conn.query(sql`UPDATE bulk_changes SET status = 'running' WHERE id = ${bulkId} AND status = 'in_queue'`);
  // The user's scope as it is when the job runs (a scope narrowed since the request narrows the change).
  const where = targetConditions(await branchScopeOfUser(row.user_id), row.target);
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
  // Then re-decide duplicates after the first deletion; from the start if an earlier attempt may have deleted some.
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

/** Marks the job failed, keeping its done batches, and audits what they changed in the same transaction. */
export async function markBulkFailed(bulkId: string, message: string): Promise<boolean> {
  const conn = await connection();
  const error = message.slice(0, 500);
  // Re-decide duplicates after a part-way deletion, as on completion (best effort: the database may be failing).
  const [state] = await conn.query<{ status: string; deleting: boolean }>(sql`SELECT status::text AS status, (change -> 'delete') IS NOT NULL AS deleting FROM bulk_changes WHERE id = ${bulkId}`);
  let decided: boolean | undefined;
  if (state?.deleting && state.status === "running") {
    decided = await clearStaleDuplicates(0).then(
      () => true,
      (cause: unknown) => {
        logError(cause, "bulk change: duplicate flags not decided again after the failure", { job: "bulk", job_id: bulkId });
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
