import "server-only";
import type { Tx } from "@/lib/db/transaction";
import { emailKey } from "./schema";
import { config } from "@/lib/config";
import { isLockTimeout } from "@/lib/db/errors";
import { sql, type Queryable, type Statement } from "@/lib/db/sql";
import { AppError } from "@/lib/errors";
import { problem } from "@/lib/i18n/problem";

// The one place that decides duplicates (docs/decisions/0032-duplicates-decided-in-one-place.md):
// a subscriber is a duplicate when an earlier one (a smaller id) has the same email (trimmed, any
// case) or the same mobile (E.164), unless the two were marked "not duplicates". Creation, edit,
// import, deletion, restore, merge and dismissal all decide with `earlierMatches`, under advisory
// locks on the keys involved, so of two concurrent creations exactly the later is flagged.

/** Lock namespaces (the first key of the two-key advisory lock), so an email never shares a key with a mobile. */
export const LOCK_EMAIL = 41_001;
export const LOCK_MOBILE = 41_002;
/**
 * Taken exclusively by an import's insert (it decides all its rows at once and cannot lock every
 * key), shared by creations, edits and deletions before their key locks (docs/decisions/0013-imports-all-or-nothing.md).
 */
export const LOCK_IMPORT = 41_003;

/** Seconds a creation or edit refused beside an import's insert is told to wait. */
const IMPORT_RETRY_AFTER_SECONDS = 5;

/** Takes LOCK_IMPORT shared until commit; during an import's insert, waits at most IMPORT_LOCK_WAIT_MS, then 503. */
export async function lockBesideImports(tx: Queryable) {
  const [free] = await tx.query<{ ok: boolean }>(sql`SELECT pg_try_advisory_xact_lock_shared(${LOCK_IMPORT}::int, 0) AS ok`);
  if (free?.ok) return;
  const [set] = await tx.query<{ previous: string }>(sql`SELECT current_setting('lock_timeout') AS previous, set_config('lock_timeout', ${`${config().IMPORT_LOCK_WAIT_MS}ms`}, true) AS now`);
  try {
    await tx.query(sql`SELECT 1 AS locked FROM pg_advisory_xact_lock_shared(${LOCK_IMPORT}::int, 0)`);
  } catch (error) {
    if (!isLockTimeout(error)) throw error;
    throw new AppError(503, "import_in_progress", problem("duplicates.importInProgress"), undefined, IMPORT_RETRY_AFTER_SECONDS);
  }
  await tx.query(sql`SELECT set_config('lock_timeout', ${set?.previous ?? "0"}, true) AS restored`);
}

const emailKeys = (emails: readonly string[]) => [...new Set(emails.map(emailKey))].sort();
const mobileKeys = (mobiles: readonly string[]) => [...new Set(mobiles)].sort();

/** Locks every key until commit, always in one order (import lock, emails, mobiles, each sorted), so no deadlock. */
export async function lockKeySets(tx: Queryable, emails: readonly string[], mobiles: readonly string[]) {
  await lockBesideImports(tx);
  await tx.query(sql`SELECT count(pg_advisory_xact_lock(${LOCK_EMAIL}::int, hashtext(k))) AS n FROM unnest(${emailKeys(emails)}::text[]) WITH ORDINALITY AS u(k, i) GROUP BY ()`);
  await tx.query(sql`SELECT count(pg_advisory_xact_lock(${LOCK_MOBILE}::int, hashtext(k))) AS n FROM unnest(${mobileKeys(mobiles)}::text[]) WITH ORDINALITY AS u(k, i) GROUP BY ()`);
}

/** Whether the pair (earlier, later) was marked "not duplicates" (both id expressions). */
export const dismissed = (earlier: Statement, later: Statement) =>
  sql`EXISTS (SELECT 1 FROM subscriber_dismissals d WHERE d.low_id = ${earlier} AND d.high_id = ${later})`;

/** Which rule flags a subscriber: `is_duplicate` is their OR, and the three are always written together. */
export type DuplicateFlags = { is_duplicate: boolean; duplicate_by_email: boolean; duplicate_by_mobile: boolean };

/** The rule's two halves, as SQL (one boolean each). */
export type RuleMatches = { email: Statement; mobile: Statement };

/**
 * The rule, as SQL over a row `t` with `id`, `email` and `mobile`: an earlier subscriber shares its
 * email (any case), or its mobile, the pair not dismissed. `unsaved`: `t` is a row not stored yet (an
 * import's), so every subscriber is earlier and no pair with it can have been dismissed.
 */
export function earlierMatches(t: Statement, { unsaved = false } = {}): RuleMatches {
  const earlier = (same: Statement) =>
    unsaved
      ? sql`EXISTS (SELECT 1 FROM subscribers e WHERE ${same})`
      : sql`EXISTS (SELECT 1 FROM subscribers e WHERE ${same} AND e.id < ${t}.id AND NOT ${dismissed(sql`e.id`, sql`${t}.id`)})`;
  return { email: earlier(sql`lower(e.email) = lower(${t}.email)`), mobile: earlier(sql`e.mobile = ${t}.mobile`) };
}

/**
 * The rule for a batch of rows `r` about to be inserted together in `order` (an import's): each has
 * the stored subscribers before it, and the batch's rows before it in that order.
 */
export function batchRowMatches(r: Statement, order: Statement): RuleMatches {
  const stored = earlierMatches(r, { unsaved: true });
  return {
    email: sql`(row_number() OVER (PARTITION BY lower(${r}.email) ORDER BY ${order}) > 1 OR ${stored.email})`,
    mobile: sql`(row_number() OVER (PARTITION BY ${r}.mobile ORDER BY ${order}) > 1 OR ${stored.mobile})`,
  };
}

/**
 * Decides again, by the rule, the flags of the subscribers `t` that `which` selects (callers hold
 * their keys' locks). Versions (`updated_at`) do not move. Returns the ids whose `is_duplicate` changed.
 */
export async function redecide(tx: Tx, which: Statement): Promise<number[]> {
  const m = earlierMatches(sql`t`);
  const rows = await tx.query<{ id: number; changed: boolean }>(sql`
    WITH decided AS (SELECT t.id, t.is_duplicate AS was, ${m.email} AS by_email, ${m.mobile} AS by_mobile FROM subscribers t WHERE ${which})
    UPDATE subscribers s SET is_duplicate = d.by_email OR d.by_mobile, duplicate_by_email = d.by_email, duplicate_by_mobile = d.by_mobile
      FROM decided d WHERE s.id = d.id AND (s.duplicate_by_email, s.duplicate_by_mobile, s.is_duplicate) IS DISTINCT FROM (d.by_email, d.by_mobile, d.by_email OR d.by_mobile)
    RETURNING s.id, d.was <> (d.by_email OR d.by_mobile) AS changed`);
  return rows.filter((r) => r.changed).map((r) => r.id).sort((a, b) => a - b);
}

/**
 * Decides again the flags of every subscriber with one of these keys (callers hold their locks),
 * from id `from` on: a change at one id never changes an earlier subscriber's flag.
 */
export function decideDuplicates(tx: Tx, emails: readonly string[], mobiles: readonly string[], from = 0): Promise<number[]> {
  return redecide(tx, sql`t.id >= ${from} AND (lower(t.email) = ANY(${emailKeys(emails)}::text[]) OR t.mobile = ANY(${mobileKeys(mobiles)}::text[]))`);
}

/** The flags of a subscriber about to be created with this email and mobile (its keys locked by the caller). */
export async function decideNew(tx: Tx, values: { email: string; mobile: string }): Promise<DuplicateFlags> {
  const m = earlierMatches(sql`v`, { unsaved: true });
  const [row] = await tx.query<{ email: boolean; mobile: boolean }>(sql`
    SELECT ${m.email} AS email, ${m.mobile} AS mobile FROM (SELECT ${values.email}::text AS email, ${values.mobile}::text AS mobile) v`);
  const flags = { duplicate_by_email: row?.email ?? false, duplicate_by_mobile: row?.mobile ?? false };
  return { is_duplicate: flags.duplicate_by_email || flags.duplicate_by_mobile, ...flags };
}

/** Locks the keys of these subscribers, and returns them. */
export async function lockKeysOf(tx: Queryable, ids: readonly number[]): Promise<{ emails: string[]; mobiles: string[] }> {
  const rows = ids.length ? await tx.query<{ email: string; mobile: string }>(sql`SELECT email, mobile FROM subscribers WHERE id = ANY(${[...ids]}::int[])`) : [];
  const keys = { emails: rows.map((r) => r.email), mobiles: rows.map((r) => r.mobile) };
  await lockKeySets(tx, keys.emails, keys.mobiles);
  return keys;
}

export type DuplicateMatch = { email: number | null; mobile: number | null };

/** Ids of the earliest subscribers with this email and with this mobile (before `beforeId`, pairs with it not dismissed), if any. */
export async function findDuplicates(tx: Queryable, email: string | null, mobile: string | null, beforeId?: number): Promise<DuplicateMatch> {
  const earlier = beforeId === undefined ? sql`` : sql`AND id < ${beforeId} AND NOT ${dismissed(sql`id`, sql`${beforeId}::int`)}`;
  const [row] = await tx.query<DuplicateMatch>(sql`SELECT
      ${email === null ? sql`NULL::int` : sql`(SELECT min(id) FROM subscribers WHERE lower(email) = ${emailKey(email)} ${earlier})`} AS email,
      ${mobile === null ? sql`NULL::int` : sql`(SELECT min(id) FROM subscribers WHERE mobile = ${mobile} ${earlier})`} AS mobile`);
  return row ?? { email: null, mobile: null };
}

/** Every pair of these ids, smaller first: what "not duplicates" stores. */
export function pairsOf(ids: readonly number[]): [number, number][] {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  return sorted.flatMap((low, i) => sorted.slice(i + 1).map((high) => [low, high] as [number, number]));
}

/** Marks every pair of these subscribers "not duplicates" (keys locked by the caller); returns the pairs new to the table. */
export async function storeDismissals(tx: Tx, ids: readonly number[], by: number): Promise<[number, number][]> {
  const pairs = pairsOf(ids);
  if (!pairs.length) return [];
  const rows = await tx.query<{ low_id: number; high_id: number }>(sql`
    INSERT INTO subscriber_dismissals (low_id, high_id, created_by)
    SELECT p.low, p.high, ${by}::int FROM unnest(${pairs.map((p) => p[0])}::int[], ${pairs.map((p) => p[1])}::int[]) AS p(low, high)
    ON CONFLICT DO NOTHING RETURNING low_id, high_id`);
  return rows.map((r) => [r.low_id, r.high_id] as [number, number]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

/** Takes back "not duplicates" between every pair of these subscribers; returns the pairs removed. */
export async function removeDismissals(tx: Tx, ids: readonly number[]): Promise<[number, number][]> {
  const sorted = [...new Set(ids)];
  const rows = await tx.query<{ low_id: number; high_id: number }>(sql`
    DELETE FROM subscriber_dismissals WHERE low_id = ANY(${sorted}::int[]) AND high_id = ANY(${sorted}::int[]) RETURNING low_id, high_id`);
  return rows.map((r) => [r.low_id, r.high_id] as [number, number]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}
