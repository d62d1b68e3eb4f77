import "server-only";
import crypto from "node:crypto";
import { auditStatement } from "@/lib/audit/log";
import type { SessionUser } from "@/lib/auth/permissions";
import { config } from "@/lib/config";
import { connection, sql, type Queryable, type Statement } from "@/lib/db/sql";
import { AppError, notFound } from "@/lib/errors";
import { queue, sendBulkJob } from "@/lib/export/queue";
import { newExportId } from "@/lib/export/ids";
import { parseWith } from "@/lib/list/params";
import { whereClause } from "@/lib/list/sql";
import type { BulkChange, BulkTarget } from "./bulk-schema";
import { LOCK_EMAIL, LOCK_MOBILE, lockBesideImports } from "./duplicates";
import { reevaluateLater } from "./edit";
import { SUBSCRIBER_FILTER_KEYS, subscriberFilterOnlySchema } from "./filters";
import { subscriberConditions } from "./where";

// A change of many subscribers at once: their status, their mandatory flag, or (administrators)
// deleting them; either a selection of ids or every subscriber matching the list's filters.
//
// Up to BULK_INLINE_MAX rows it runs at once, in one transaction. Beyond, it is a job on the
// export's queue (pg-boss): batches of BULK_BATCH_SIZE rows in id order, each its own short
// transaction that also records how far it got (`last_id`), so no statement holds rows for long
// and a job retried after a crash goes on after the last batch done, never changing a row twice.
// Either way, one audit event says what changed, with the filters (or ids) and the count. The
// trigger-kept counts follow every batch; a deletion decides again the duplicate flag of later
// subscribers that matched the deleted ones.

/** The filters of a target, checked by the list's own parser (400 naming the bad one). */
function targetFilters(target: Extract<BulkTarget, { filters: unknown }>) {
  const known = Object.fromEntries(Object.entries(target.filters).filter(([k]) => (SUBSCRIBER_FILTER_KEYS as readonly string[]).includes(k)));
  const unknown = Object.keys(target.filters).filter((k) => !(k in known) && k !== "page" && k !== "sort");
  if (unknown.length) throw new AppError(400, "invalid_input", `Not a filter: ${unknown.join(", ")}.`);
  const parsed = parseWith(subscriberFilterOnlySchema, known);
  if (!parsed.ok) throw new AppError(400, "invalid_input", parsed.message, parsed.fields);
  return { raw: known, values: parsed.value };
}

/** The target's condition over `subscribers s`. */
function targetConditions(target: BulkTarget): Statement[] {
  if ("ids" in target) return [sql`s.id = ANY(${target.ids}::int[])`];
  return subscriberConditions(targetFilters(target).values);
}

export async function countTarget(target: BulkTarget): Promise<number> {
  const conn = await connection();
  const [row] = await conn.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM subscribers s ${whereClause(targetConditions(target))}`);
  return row?.n ?? 0;
}

/** How a target is written in the audit log and the job's row. */
const targetRecord = (target: BulkTarget) => ("ids" in target ? { ids: target.ids } : { filters: targetFilters(target).raw });

/** Applies the change to these ids (one batch, in the caller's transaction); returns how many rows it touched. */
async function applyBatch(tx: Queryable, ids: number[], change: BulkChange): Promise<number> {
  if (ids.length === 0) return 0;
  if ("subscription_status" in change) {
    await tx.query(sql`UPDATE subscribers SET subscription_status = ${change.subscription_status}::"SubscriptionStatus", updated_at = now()
      WHERE id = ANY(${ids}::int[]) AND subscription_status <> ${change.subscription_status}::"SubscriptionStatus"`);
    return ids.length;
  }
  if ("is_mandatory" in change) {
    await tx.query(sql`UPDATE subscribers SET is_mandatory = ${change.is_mandatory}, updated_at = now()
      WHERE id = ANY(${ids}::int[]) AND is_mandatory <> ${change.is_mandatory}`);
    return ids.length;
  }
  // Deleting: the duplicate keys of the deleted rows are locked as creation locks them (emails,
  // then mobiles, each in order), then the later subscribers that matched them are decided again.
  const keys = await tx.query<{ email: string; mobile: string }>(sql`SELECT lower(email) AS email, mobile FROM subscribers WHERE id = ANY(${ids}::int[])`);
  const emails = [...new Set(keys.map((k) => k.email))].sort();
  const mobiles = [...new Set(keys.map((k) => k.mobile))].sort();
  await lockBesideImports(tx);
  await tx.query(sql`SELECT count(pg_advisory_xact_lock(${LOCK_EMAIL}::int, hashtext(k))) AS n FROM unnest(${emails}::text[]) WITH ORDINALITY AS u(k, i) GROUP BY ()`);
  await tx.query(sql`SELECT count(pg_advisory_xact_lock(${LOCK_MOBILE}::int, hashtext(k))) AS n FROM unnest(${mobiles}::text[]) WITH ORDINALITY AS u(k, i) GROUP BY ()`);
  const deleted = await tx.query<{ id: number }>(sql`DELETE FROM subscribers WHERE id = ANY(${ids}::int[]) RETURNING id`);
  if (deleted.length) await reevaluateLater(tx, Math.min(...ids), emails, mobiles);
  return deleted.length;
}

const changeRecord = (change: BulkChange) => change;

export type BulkRequestResult = { kind: "done"; count: number } | { kind: "queued"; id: string; total: number };

/**
 * Runs or queues a bulk change for `user`. The guard of the caller decides who may call it; the
 * deletion is checked here too (administrators only), whatever the caller.
 */
export async function requestBulkChange(user: SessionUser, target: BulkTarget, change: BulkChange): Promise<BulkRequestResult> {
  if ("delete" in change && user.role !== "admin") throw new AppError(403, "forbidden", "Only administrators delete subscribers.");
  const total = await countTarget(target);
  if (total === 0) throw new AppError(400, "nothing_matches", "No subscriber matches: nothing would change.");
  const conn = await connection();
  const where = whereClause(targetConditions(target));
  const audit = (count: number, extra: Record<string, unknown> = {}) =>
    auditStatement({ action: "subscriber.bulk_change", actor: user, entity: "bulk_change", after: { ...targetRecord(target), change: changeRecord(change), count, ...extra } });

  if (total <= config().BULK_INLINE_MAX) {
    const count = await conn.transaction(async (tx) => {
      const ids = (await tx.query<{ id: number }>(sql`SELECT s.id FROM subscribers s ${where} ORDER BY s.id`)).map((r) => r.id);
      const changed = await applyBatch(tx, ids, change);
      await tx.query(await audit(changed));
      return changed;
    });
    return { kind: "done", count };
  }
  await queue(); // started outside the transaction: on PGlite that holds the only connection
  const id = newExportId();
  const jobId = crypto.randomUUID();
  await conn.transaction(async (tx) => {
    await tx.query(sql`INSERT INTO bulk_changes (id, user_id, target, change, total_rows, job_id)
      VALUES (${id}, ${user.id}, ${JSON.stringify(targetRecord(target))}::jsonb, ${JSON.stringify(change)}::jsonb, ${total}, ${jobId})`);
    await sendBulkJob(tx, id, jobId);
  });
  return { kind: "queued", id, total };
}

type BulkRow = { id: string; user_id: number; status: string; target: BulkTarget; change: BulkChange; total_rows: number; processed_rows: number; last_id: number };

/** One attempt of a bulk change job: batches in id order from where the last attempt stopped. */
export async function runBulkChange(
  bulkId: string,
  signal?: AbortSignal,
  /** After each batch is committed, with the rows done so far. */
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
  let { last_id: last, processed_rows: processed } = row;
  for (;;) {
    signal?.throwIfAborted();
    const done = await conn.transaction(async (tx) => {
      const ids = (await tx.query<{ id: number }>(sql`SELECT s.id FROM subscribers s ${whereClause([...where, sql`s.id > ${last}`])} ORDER BY s.id LIMIT ${size}`)).map((r) => r.id);
      if (ids.length === 0) return null;
      const changed = await applyBatch(tx, ids, row.change);
      const next = ids[ids.length - 1]!;
      await tx.query(sql`UPDATE bulk_changes SET last_id = ${next}, processed_rows = processed_rows + ${changed} WHERE id = ${bulkId}`);
      return { next, changed };
    });
    if (!done) break;
    last = done.next;
    processed += done.changed;
    onBatch?.(processed);
  }
  const [user] = await conn.query<{ id: number; email: string }>(sql`SELECT id, email FROM users WHERE id = ${row.user_id}`);
  await conn.transaction(async (tx) => {
    await tx.query(sql`UPDATE bulk_changes SET status = 'completed', completed_at = now() WHERE id = ${bulkId}`);
    await tx.query(
      await auditStatement({
        action: "subscriber.bulk_change",
        actor: user ?? null,
        entity: "bulk_change",
        entityId: bulkId,
        after: { ...row.target, change: row.change, count: processed },
        request: { ip: null, userAgent: "bulk change job" },
      }),
    );
  });
  return { processed };
}

/** The last attempt failed: the bulk change is failed, with the batches already done kept. */
export async function markBulkFailed(bulkId: string, message: string): Promise<boolean> {
  const conn = await connection();
  const rows = await conn.query(sql`UPDATE bulk_changes SET status = 'failed', error = ${message.slice(0, 500)}
    WHERE id = ${bulkId} AND status IN ('in_queue', 'running') RETURNING id`);
  return rows.length > 0;
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
