import "server-only";
import crypto from "node:crypto";
import type { SessionUser } from "@/lib/auth/permissions";
import { config } from "@/lib/config";
import { connection, query, sql, type Queryable, type Statement } from "@/lib/db/sql";
import { AppError, conflict } from "@/lib/errors";
import { cutText, problem } from "@/lib/i18n/problem";
import { problemsIn } from "@/lib/i18n/problems-in";
import type { Prisma } from "@/lib/generated/prisma/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { restoreSubscribers, trashSubscribers } from "@/lib/trash/subscribers";
import { newJobId } from "@/lib/jobs/ids";
import { queue, sendJob } from "@/lib/jobs/queue";
import { parseWith } from "@/lib/list/parse";
import { heavy } from "@/lib/load/user-limit";
import { whereClause } from "@/lib/list/sql";
import { keysNotIn } from "@/lib/validation/common";
import { BULK_FILTER_NAMES, MAX_SELECTION, type BulkChange, type BulkChangeRecord, type BulkTarget } from "./bulk-schema";
import { lockBesideImports, lockKeySets, redecide } from "./duplicates";
import { subscriberFilterOnlySchema } from "./filters";
import { subscriberConditions } from "./where";
import { branchScopeOfUser, scopeCondition, subscribersOf, type BranchScope } from "@/lib/auth/scope";
import { logError } from "@/lib/telemetry/log";
import { transaction, type Tx } from "@/lib/db/transaction";
import type { AnyAuditEntry } from "@/lib/audit/log";

// Bulk changes of status, mandatory flag or (admins) deletion to the trash: small ones at once in
// one transaction, larger ones as a resumable job in id-ordered batches, one audit event either way
// (docs/decisions/0014-bulk-changes-in-the-audit-log.md, 0015-bulk-deletion-decides-duplicates-after.md);
// each batch records the values it changed, for the undo (docs/decisions/0031-trash.md). The page's
// action and POST /api/v1/subscribers/bulk both call requestBulkChange.

/** The target's filters, by the list's parser; unknown names refused by own keys, never `in` (an inherited name would widen the change to everyone). */
function targetFilters(target: Extract<BulkTarget, { filters: unknown }>) {
  const unknown = keysNotIn(target.filters, BULK_FILTER_NAMES);
  if (unknown.length) throw new AppError(400, "invalid_input", problem("bulk.notAFilter", { count: unknown.length, names: unknown.map((k) => k.slice(0, 40)).join(", ") }));
  const known = Object.fromEntries(Object.entries(target.filters).filter(([k]) => k !== "page" && k !== "sort"));
  const parsed = parseWith(subscriberFilterOnlySchema, known);
  if (!parsed.ok) throw new AppError(400, "invalid_input", parsed.message, parsed.fields);
  return { raw: known, values: parsed.value };
}

/** The FROM and WHERE of the target's subscribers in the scope (`s`): ids of other branches are left out as unknown ids are. */
function targetFrom(scope: BranchScope, target: BulkTarget, more: Statement[] = []): Statement {
  const conditions = "ids" in target ? [sql`s.id = ANY(${target.ids}::int[])`] : subscriberConditions(scope, targetFilters(target).values);
  return sql`FROM ${subscribersOf(scope)} s ${whereClause([...conditions, ...more])}`;
}

/** Counts the target's subscribers; as costly as the list's total, so callers bound it with `heavy` (docs/decisions/0010-no-user-can-starve-the-others.md). */
export async function countTarget(scope: BranchScope, target: BulkTarget): Promise<number> {
  const [row] = await query<{ n: number }>(sql`SELECT count(*)::int AS n ${targetFrom(scope, target)}`);
  return row?.n ?? 0;
}

/** The first `limit` selected subscribers' names in the scope, in the selection's order, for the confirmation to name them. */
export async function selectedNames(scope: BranchScope, ids: number[], limit = 3): Promise<string[]> {
  const rows = await query<{ name: string }>(sql`SELECT s.first_name || ' ' || s.last_name AS name ${targetFrom(scope, { ids })}
    ORDER BY array_position(${ids}::int[], s.id) LIMIT ${limit}`);
  return rows.map((r) => r.name);
}

/** A change of a batch: how many rows it went through, and the ids whose values it changed. */
type BatchResult = { matched: number; changed: number[] };

/** The bulk change a batch belongs to: its values before are recorded under its id, its deletions name it. */
type BatchOf = { bulkId: string; userId: number | null };

/**
 * Applies the change to one batch in the caller's transaction, recording each changed row's value
 * before (and its version after) in the same transaction, for the undo; rows are locked in id
 * order first. `decideAgain` only at once: a job re-decides after its last batch (0015).
 */
async function applyBatch(tx: Tx, scope: BranchScope, ids: number[], change: BulkChange, of: BatchOf, { decideAgain }: { decideAgain: boolean }): Promise<BatchResult> {
  if (ids.length === 0) return { matched: 0, changed: [] };
  if ("delete" in change) {
    const moved = await trashSubscribers(tx, ids, { deletedBy: of.userId, bulkChangeId: of.bulkId, decideAgain });
    return { matched: moved.length, changed: moved };
  }
  const [set, differs, old] =
    "subscription_status" in change
      ? [
          sql`subscription_status = ${change.subscription_status}::"SubscriptionStatus"`,
          sql`subscription_status <> ${change.subscription_status}::"SubscriptionStatus"`,
          sql`old.subscription_status AS old_status, NULL::boolean AS old_mandatory`,
        ]
      : [
          sql`is_mandatory = ${change.is_mandatory}`,
          sql`is_mandatory <> ${change.is_mandatory}`,
          sql`NULL::"SubscriptionStatus" AS old_status, old.is_mandatory AS old_mandatory`,
        ];
  // Locked through the scope again: a row moved out of it since the ids were read (PostgreSQL re-checks a locked row) is left alone.
  // eslint-disable-next-line console/scoped-sources -- the UPDATE writes only the rows `old` locked through subscribersOf(scope).
  const rows = await tx.query<{ id: number }>(sql`
    WITH old AS (SELECT id, subscription_status, is_mandatory FROM ${subscribersOf(scope)} s WHERE id = ANY(${ids}::int[]) AND ${differs} ORDER BY id FOR UPDATE),
    changed AS (UPDATE subscribers s SET ${set}, updated_at = now() FROM old WHERE s.id = old.id
      RETURNING s.id, ${old}, s.updated_at)
    INSERT INTO bulk_change_rows (bulk_change_id, subscriber_id, old_status, old_mandatory, changed_at)
    SELECT ${of.bulkId}, c.id, c.old_status, c.old_mandatory, c.updated_at FROM changed c
    RETURNING subscriber_id AS id`);
  return { matched: ids.length, changed: rows.map((r) => r.id).sort((a, b) => a - b) };
}

// Smaller than a deletion's batch: a flag change rewrites every index entry, holding locks longer (bench/README.md).
const REDECISION_BATCH = 250;

/**
 * After deletions, clears the flag of duplicates after `after` whose earlier match is gone, in short
 * transactions locking keys as edits do; returns how many (docs/decisions/0015-bulk-deletion-decides-duplicates-after.md).
 */
export async function clearStaleDuplicates(after: number, signal?: AbortSignal, onBatch?: () => void): Promise<number> {
  const size = Math.min(config().BULK_BATCH_SIZE, REDECISION_BATCH);
  let cursor = after;
  let cleared = 0;
  for (;;) {
    signal?.throwIfAborted();
    const step = await transaction(async (tx) => {
      // Waits for an import's insert, so rows it decided against the deleted subscribers are seen.
      await lockBesideImports(tx);
      // Rows before keys, in id order, as edits and batches lock them.
      // eslint-disable-next-line console/scoped-sources -- the duplicate rule decides for every row, whoever deleted (docs/decisions/0015-bulk-deletion-decides-duplicates-after.md).
      const rows = await tx.query<{ id: number; email: string; mobile: string }>(sql`
        SELECT id, lower(email) AS email, mobile FROM subscribers WHERE is_duplicate AND id > ${cursor} ORDER BY id LIMIT ${size} FOR UPDATE`);
      if (rows.length === 0) return null;
      await lockKeySets(tx, rows.map((r) => r.email), rows.map((r) => r.mobile));
      // Deletions only clear flags: the rule decides each row whose keys are still those locked.
      const done = await redecide(tx, sql`t.is_duplicate AND (t.id, lower(t.email), t.mobile) IN
        (SELECT * FROM unnest(${rows.map((r) => r.id)}::int[], ${rows.map((r) => r.email)}::text[], ${rows.map((r) => r.mobile)}::text[]))`);
      return { next: rows[rows.length - 1]!.id, cleared: done.length };
    }, { job: true });
    if (!step) return cleared;
    cursor = step.next;
    cleared += step.cleared;
    onBatch?.();
  }
}

/** The most rows a change (or an undo) runs at once; a deletion's stays within a selection's size. */
const atOnceMax = (change: BulkChange) => ("delete" in change ? Math.min(config().BULK_INLINE_MAX, MAX_SELECTION) : config().BULK_INLINE_MAX);

/** Whether the change runs at once rather than as a job; a deletion at once stays within a selection's size. */
export function runsAtOnce(target: BulkTarget, change: BulkChange, total: number): boolean {
  if ("ids" in target) return true;
  return total <= atOnceMax(change);
}

/** Every bulk change has an id (its page, its undo); `count`: the rows a change made at once went through. */
export type BulkRequestResult = { kind: "done"; id: string; count: number } | { kind: "queued"; id: string; total: number };

/** Runs or queues a bulk change of the scope's subscribers; deletion is checked for admins here whatever the caller. */
export async function requestBulkChange(scope: BranchScope, user: SessionUser, target: BulkTarget, change: BulkChange): Promise<BulkRequestResult> {
  if ("delete" in change && user.role !== "admin") throw new AppError(403, "forbidden", problem("bulk.onlyAdminsDelete"));
  const total = await heavy(user.id, () => countTarget(scope, target));
  if (total === 0) throw new AppError(400, "nothing_matches", problem("bulk.nothingMatches"));
  const from = targetFrom(scope, target);
  const id = newJobId();

  // A selection (at most MAX_SELECTION rows) always runs at once: its event names the subscribers.
  if ("ids" in target || runsAtOnce(target, change, total)) {
    const count = await transaction(async (tx) => {
      await tx.query(sql`INSERT INTO bulk_changes (id, user_id, status, target, change, total_rows)
        VALUES (${id}, ${user.id}, 'running', '{}'::jsonb, ${JSON.stringify(change)}::jsonb, ${total})`);
      const ids = (await tx.query<{ id: number }>(sql`SELECT s.id ${from} ORDER BY s.id`)).map((r) => r.id);
      const { matched, changed } = await applyBatch(tx, scope, ids, change, { bulkId: id, userId: user.id }, { decideAgain: true });
      // Only ids that changed, so a later subscriber given a missing id never shows this in its history.
      const what = "ids" in target ? { ids: changed } : { filters: targetFilters(target).raw };
      await tx.query(sql`UPDATE bulk_changes SET status = 'completed', completed_at = now(), target = ${JSON.stringify(what)}::jsonb,
          total_rows = ${ids.length}, processed_rows = ${matched}, changed_rows = ${changed.length}
        WHERE id = ${id}`);
      await tx.audit({ action: "subscriber.bulk_change", actor: user, entity: "bulk_change", entityId: id, after: { ...what, change, count: matched } });
      return matched;
    });
    return { kind: "done", id, count };
  }
  await queue(); // started outside the transaction: on PGlite that holds the only connection
  const jobId = crypto.randomUUID();
  await transaction(async (tx) => {
    await tx.query(sql`INSERT INTO bulk_changes (id, user_id, target, change, total_rows, job_id)
      VALUES (${id}, ${user.id}, ${JSON.stringify({ filters: targetFilters(target).raw })}::jsonb, ${JSON.stringify(change)}::jsonb, ${total}, ${jobId})`);
    await sendJob(tx, { kind: "bulk", id, userId: user.id }, jobId);
  });
  return { kind: "queued", id, total };
}

type BulkRow = {
  id: string;
  user_id: number;
  status: string;
  target: BulkTarget;
  change: BulkChange;
  total_rows: number;
  processed_rows: number;
  last_id: number;
  undo_of: string | null;
};

const BULK_ROW = sql`id, user_id, status::text AS status, target, change, total_rows, processed_rows, last_id, undo_of`;

/** One attempt of a bulk change job (or of an undo): batches in id order from where the last attempt stopped. */
export async function runBulkChange(
  bulkId: string,
  signal?: AbortSignal,
  /** After each committed transaction, with the rows done so far. */
  onBatch?: (processed: number) => void,
): Promise<{ processed: number } | { skipped: string }> {
  const conn = await connection();
  const [row] = await conn.query<BulkRow>(sql`SELECT ${BULK_ROW} FROM bulk_changes WHERE id = ${bulkId}`);
  if (!row) return { skipped: "the bulk change no longer exists" };
  if (row.status !== "in_queue" && row.status !== "running") return { skipped: `the bulk change is ${row.status}` };
  await transaction((tx) => tx.query(sql`UPDATE bulk_changes SET status = 'running' WHERE id = ${bulkId} AND status = 'in_queue'`), { job: true });
  // An undo puts back what its change changed, within the user's scope as the job starts.
  if (row.undo_of) return runUndo(row, await branchScopeOfUser(row.user_id), signal, onBatch);
  const size = config().BULK_BATCH_SIZE;
  const deleting = "delete" in row.change;
  // An earlier attempt may have deleted rows whose later duplicates it never decided again.
  const resumed = row.status === "running";
  let firstDeleted: number | null = null;
  let { last_id: last, processed_rows: processed } = row;
  for (;;) {
    signal?.throwIfAborted();
    const done = await transaction(async (tx) => {
      // The user's scope as it is at each batch: a scope narrowed since the request, or during the job, narrows the change.
      const scope = await branchScopeOfUser(row.user_id, tx);
      const from = targetFrom(scope, row.target, [sql`s.id > ${last}`]);
      const ids = (await tx.query<{ id: number }>(sql`SELECT s.id ${from} ORDER BY s.id LIMIT ${size}`)).map((r) => r.id);
      if (ids.length === 0) return null;
      const { matched, changed } = await applyBatch(tx, scope, ids, row.change, { bulkId, userId: row.user_id }, { decideAgain: false });
      const next = ids[ids.length - 1]!;
      await tx.query(sql`UPDATE bulk_changes SET last_id = ${next}, processed_rows = processed_rows + ${matched}, changed_rows = changed_rows + ${changed.length}
        WHERE id = ${bulkId}`);
      return { next, matched, first: changed[0] ?? null };
    }, { job: true });
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
  await transaction(async (tx) => {
    await tx.query(sql`UPDATE bulk_changes SET status = 'completed', completed_at = now() WHERE id = ${bulkId}`);
    await tx.audit({
      action: "subscriber.bulk_change",
      userId: row.user_id,
      job: "bulk change job",
      entity: "bulk_change",
      entityId: bulkId,
      after: { ...row.target, change: row.change, count: processed },
    });
  });
  return { processed };
}

/**
 * Marks the job failed, keeping its done batches, and audits what they changed in the same
 * transaction. `message` is a problem key, kept so and put into words where it is shown; the
 * audit is told in English, as an import's failure is.
 */
export async function markBulkFailed(bulkId: string, message: string): Promise<boolean> {
  const conn = await connection();
  const error = cutText(message, 500);
  // Re-decide duplicates after a part-way deletion, as on completion (best effort: the database may be failing).
  const [state] = await conn.query<{ status: string; deleting: boolean }>(sql`SELECT status::text AS status,
      (change -> 'delete') IS NOT NULL AND undo_of IS NULL AS deleting FROM bulk_changes WHERE id = ${bulkId}`);
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
  return transaction(async (tx) => {
    const [row] = await tx.query<Pick<BulkRow, "user_id" | "target" | "change" | "processed_rows" | "total_rows" | "undo_of">>(sql`
      UPDATE bulk_changes SET status = 'failed', error = ${error}
       WHERE id = ${bulkId} AND status IN ('in_queue', 'running')
      RETURNING user_id, target, change, processed_rows, total_rows, undo_of`);
    if (!row) return false;
    await tx.audit({
      action: row.undo_of ? "subscriber.bulk_undo" : "subscriber.bulk_change",
      userId: row.user_id,
      job: "bulk change job",
      entity: "bulk_change",
      entityId: bulkId,
      after: {
        ...(row.undo_of ? { undo_of: row.undo_of } : row.target),
        change: row.change,
        count: row.processed_rows,
        total: row.total_rows,
        status: "failed",
        error: problemsIn("en")(error).slice(0, 500),
        ...(decided === undefined ? {} : { duplicates_decided_again: decided }),
      },
    });
    return true;
  });
}

// Undo (docs/decisions/0031-trash.md): the values before were recorded per row in the transaction
// of each batch (bulk_change_rows; a deletion's rows wait in the trash under its id). An undo puts
// back, batch by batch, the rows whose version is still the one the change left, and forgets each
// batch's records in the same transaction: a killed attempt's retry goes on with the rest.

/** Rows a deletion's undo restores per transaction: each decides duplicate flags again, as a deletion at once does (0015). */
const RESTORE_BATCH = 500;

type UndoBatch = { matched: number; changed: number; skipped: number };

/** Puts back one batch of the change `original` made, in the caller's transaction; null when nothing is left. */
async function undoBatch(tx: Tx, original: string, change: BulkChange, scope: BranchScope): Promise<UndoBatch | null> {
  if ("delete" in change) {
    const ids = (await tx.query<{ id: number }>(sql`SELECT id FROM subscriber_trash WHERE bulk_change_id = ${original}
      ORDER BY id LIMIT ${Math.min(config().BULK_BATCH_SIZE, RESTORE_BATCH)}`)).map((r) => r.id);
    if (ids.length === 0) return null;
    const restored = await restoreSubscribers(tx, ids);
    return { matched: ids.length, changed: restored.length, skipped: 0 };
  }
  const batch = await tx.query<{ id: number }>(sql`SELECT subscriber_id AS id FROM bulk_change_rows WHERE bulk_change_id = ${original}
    ORDER BY subscriber_id LIMIT ${config().BULK_BATCH_SIZE} FOR UPDATE`);
  if (batch.length === 0) return null;
  const ids = batch.map((r) => r.id);
  // Rows first, in id order, as a change's batch and an edit lock them.
  // eslint-disable-next-line console/scoped-sources -- every row the change changed is locked, in order; the UPDATE below keeps to the scope.
  await tx.query(sql`SELECT id FROM subscribers WHERE id = ANY(${ids}::int[]) ORDER BY id FOR UPDATE`);
  const [set, still] =
    "subscription_status" in change
      ? [sql`subscription_status = r.old_status`, sql`s.subscription_status = ${change.subscription_status}::"SubscriptionStatus"`]
      : [sql`is_mandatory = r.old_mandatory`, sql`s.is_mandatory = ${change.is_mandatory}`];
  // Unchanged since: still the change's value and still the version it left (any edit or change moves it).
  // eslint-disable-next-line console/scoped-sources -- the rows the change changed, in the scope (scopeCondition below).
  const put = await tx.query<{ id: number }>(sql`UPDATE subscribers s SET ${set}, updated_at = now()
      FROM bulk_change_rows r
    ${whereClause([sql`r.bulk_change_id = ${original}`, sql`r.subscriber_id = s.id`, sql`s.id = ANY(${ids}::int[])`, still, sql`s.updated_at = r.changed_at`, scopeCondition(scope, sql`s.branch_id`)])}
    RETURNING s.id`);
  await tx.query(sql`DELETE FROM bulk_change_rows WHERE bulk_change_id = ${original} AND subscriber_id = ANY(${ids}::int[])`);
  return { matched: ids.length, changed: put.length, skipped: ids.length - put.length };
}

/** Ends an undo in the caller's transaction: completed, its skipped rows counted (a deletion's: rows no longer in the trash), audited. */
async function completeUndo(tx: Tx, undoId: string, audit: (after: Prisma.InputJsonObject) => AnyAuditEntry) {
  const [done] = await tx.query<{ undo_of: string; change: BulkChange; processed_rows: number; changed_rows: number; skipped_rows: number }>(sql`
    UPDATE bulk_changes u SET status = 'completed', completed_at = now(),
        skipped_rows = CASE WHEN (u.change -> 'delete') IS NULL THEN u.skipped_rows
                            ELSE GREATEST((SELECT o.changed_rows FROM bulk_changes o WHERE o.id = u.undo_of) - u.changed_rows, 0) END
     WHERE u.id = ${undoId}
    RETURNING u.undo_of, u.change, u.processed_rows, u.changed_rows, u.skipped_rows`);
  if (!done) return;
  await tx.audit(audit({ undo_of: done.undo_of, change: done.change, count: done.processed_rows, changed: done.changed_rows, skipped: done.skipped_rows }));
}

async function runUndo(row: BulkRow, scope: BranchScope, signal?: AbortSignal, onBatch?: (processed: number) => void): Promise<{ processed: number }> {
  let processed = row.processed_rows;
  for (;;) {
    signal?.throwIfAborted();
    const done = await transaction(async (tx) => {
      const batch = await undoBatch(tx, row.undo_of!, row.change, scope);
      if (!batch) return null;
      await tx.query(sql`UPDATE bulk_changes SET processed_rows = processed_rows + ${batch.matched},
          changed_rows = changed_rows + ${batch.changed}, skipped_rows = skipped_rows + ${batch.skipped} WHERE id = ${row.id}`);
      return batch;
    }, { job: true });
    if (!done) break;
    processed += done.matched;
    onBatch?.(processed);
  }
  await transaction((tx) =>
    completeUndo(tx, row.id, (after) => ({ action: "subscriber.bulk_undo", userId: row.user_id, job: "bulk change job", entity: "bulk_change", entityId: row.id, after }),
    ),
  );
  return { processed };
}

/** Undoes the bulk change `bulkId` at once or as a job (docs/API.md): its author or an admin; a deletion's, admins. */
export async function requestUndo(scope: BranchScope, user: SessionUser, bulkId: string): Promise<BulkRequestResult> {
  const conn = await connection();
  const [original] = await conn.query<BulkRow & { old: boolean; undo: string | null }>(sql`SELECT ${BULK_ROW},
      created_at < now() - make_interval(days => ${config().TRASH_RETENTION_DAYS}) AS old,
      (SELECT x.status::text FROM bulk_changes x WHERE x.undo_of = b.id AND x.status <> 'failed' LIMIT 1) AS undo
    FROM bulk_changes b WHERE id = ${bulkId}`);
  if (!original || (original.user_id !== user.id && user.role !== "admin")) throw new AppError(404, "not_found", problem("bulk.notFound"));
  if ("delete" in original.change && user.role !== "admin") throw new AppError(403, "forbidden", problem("bulk.onlyAdminsUndoDeletion"));
  if (original.undo_of) throw conflict(problem("bulk.undoOfUndo"));
  if (original.status === "in_queue" || original.status === "running") throw conflict(problem("bulk.notFinished"));
  if (original.undo === "completed") throw conflict(problem("bulk.alreadyUndone"));
  if (original.undo) throw conflict(problem("bulk.beingUndone"));
  if (original.old) throw conflict(problem("bulk.tooOld", { days: config().TRASH_RETENTION_DAYS }));
  const [left] = await conn.query<{ n: number }>(
    "delete" in original.change
      ? sql`SELECT count(*)::int AS n FROM subscriber_trash WHERE bulk_change_id = ${bulkId}`
      : sql`SELECT count(*)::int AS n FROM bulk_change_rows WHERE bulk_change_id = ${bulkId}`,
  );
  const total = left?.n ?? 0;
  const id = newJobId();
  const insert = (tx: Tx, status: "running" | "in_queue", jobId: string | null) =>
    tx.query(sql`INSERT INTO bulk_changes (id, user_id, status, target, change, total_rows, undo_of, job_id)
      VALUES (${id}, ${user.id}, ${status}::"BulkChangeStatus", ${JSON.stringify({ undo_of: bulkId })}::jsonb, ${JSON.stringify(original.change)}::jsonb, ${total}, ${bulkId}, ${jobId})`);
  try {
    if (total <= atOnceMax(original.change)) {
      const count = await transaction(async (tx) => {
        await insert(tx, "running", null);
        let sums = { matched: 0, changed: 0, skipped: 0 };
        for (let batch = await undoBatch(tx, bulkId, original.change, scope); batch; batch = await undoBatch(tx, bulkId, original.change, scope)) {
          sums = { matched: sums.matched + batch.matched, changed: sums.changed + batch.changed, skipped: sums.skipped + batch.skipped };
        }
        await tx.query(sql`UPDATE bulk_changes SET processed_rows = ${sums.matched}, changed_rows = ${sums.changed}, skipped_rows = ${sums.skipped} WHERE id = ${id}`);
        await completeUndo(tx, id, (after) => ({ action: "subscriber.bulk_undo", actor: user, entity: "bulk_change", entityId: id, after }));
        return sums.matched;
      });
      return { kind: "done", id, count };
    }
    await queue(); // started outside the transaction: on PGlite that holds the only connection
    const jobId = crypto.randomUUID();
    await transaction(async (tx) => {
      await insert(tx, "in_queue", jobId);
      await sendJob(tx, { kind: "bulk", id, userId: user.id }, jobId);
    });
    return { kind: "queued", id, total };
  } catch (error) {
    // Two undos at once: the unique index lets one in (bulk_changes_one_undo).
    if (isUniqueViolation(error)) throw conflict(problem("bulk.alreadyOrBeingUndone"));
    throw error;
  }
}

export type BulkStatus = {
  id: string;
  user_id: number;
  status: "in_queue" | "running" | "completed" | "failed";
  change: BulkChange;
  target: { ids: number[] } | { filters: Record<string, string> } | { undo_of: string };
  total_rows: number;
  processed_rows: number;
  changed_rows: number;
  skipped_rows: number;
  error: string | null;
  created_at: Date;
  completed_at: Date | null;
  undo_of: string | null;
  /** The undo that has not failed, if any: its id and status, and who ran it. */
  undo_id: string | null;
  undo_status: "in_queue" | "running" | "completed" | null;
  undone_at: Date | null;
  undone_by: { id: number; name: string } | null;
};

/** A bulk change, to its author or an admin; anyone else's is the same 404 as none. */
export async function bulkStatus(viewer: Pick<SessionUser, "id" | "role">, bulkId: string, q?: Queryable): Promise<BulkStatus> {
  const conn = q ?? (await connection());
  const [row] = await conn.query<Omit<BulkStatus, "undone_by"> & { undone_by_id: number | null; undone_by_name: string | null }>(sql`
    SELECT b.id, b.user_id, b.status::text AS status, b.change, b.target, b.total_rows, b.processed_rows, b.changed_rows, b.skipped_rows,
           b.error, b.created_at, b.completed_at, b.undo_of, u.id AS undo_id, u.status::text AS undo_status,
           CASE WHEN u.status = 'completed' THEN u.completed_at END AS undone_at,
           CASE WHEN u.status = 'completed' THEN uu.id END AS undone_by_id, CASE WHEN u.status = 'completed' THEN uu.name END AS undone_by_name
      FROM bulk_changes b
      LEFT JOIN bulk_changes u ON u.undo_of = b.id AND u.status <> 'failed'
      LEFT JOIN users uu ON uu.id = u.user_id
     WHERE b.id = ${bulkId} ${viewer.role === "admin" ? sql`` : sql`AND b.user_id = ${viewer.id}`}`);
  if (!row) throw new AppError(404, "not_found", problem("bulk.notFound"));
  const { undone_by_id, undone_by_name, ...rest } = row;
  return { ...rest, undone_by: undone_by_id === null ? null : { id: undone_by_id, name: undone_by_name ?? "" } };
}

/** Whether `viewer` may undo it now (the page's `Undo`, with the rules of requestUndo). */
export function canUndo(viewer: Pick<SessionUser, "id" | "role">, bulk: Pick<BulkStatus, "undo_of" | "undo_id" | "status" | "change" | "user_id" | "created_at">): boolean {
  if (bulk.undo_of || bulk.undo_id) return false;
  if (bulk.status !== "completed" && bulk.status !== "failed") return false;
  if ("delete" in bulk.change && viewer.role !== "admin") return false;
  if (bulk.user_id !== viewer.id && viewer.role !== "admin") return false;
  return Date.now() - bulk.created_at.getTime() < config().TRASH_RETENTION_DAYS * 86_400_000;
}

/** docs/API.md's bulk change, its `error` in `words` (the API: its answer's language; a webhook: English). */
export function serializeBulk(b: BulkStatus, words: (text: string) => string): BulkChangeRecord {
  return {
    id: b.id,
    status: b.status,
    change: b.change,
    target: b.target,
    matched_rows: b.total_rows,
    processed_rows: b.processed_rows,
    changed_rows: b.changed_rows,
    skipped_rows: b.skipped_rows,
    error: b.error === null ? null : words(b.error),
    created_at: b.created_at.toISOString(),
    completed_at: b.completed_at?.toISOString() ?? null,
    undo_of: b.undo_of,
    undone_by: b.undone_by,
    undone_at: b.undone_at?.toISOString() ?? null,
    undo_id: b.undo_id,
  };
}
