import "server-only";
import { emailKey } from "./schema";
import { config } from "@/lib/config";
import { isLockTimeout } from "@/lib/db/errors";
import { sql, type Queryable } from "@/lib/db/sql";
import { AppError } from "@/lib/errors";

// A subscriber is a duplicate when an earlier one has the same email (trimmed, any case) or
// mobile (E.164). Decided on insert under advisory locks on both keys, so of two concurrent
// creations exactly the later is flagged.


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
    throw new AppError(503, "import_in_progress", "An import is adding its rows to the subscribers right now: try again in a few seconds.", undefined, IMPORT_RETRY_AFTER_SECONDS);
  }
  await tx.query(sql`SELECT set_config('lock_timeout', ${set?.previous ?? "0"}, true) AS restored`);
}

/** Locks many keys until commit, in the same order as creation (import lock, emails, mobiles, each sorted), so no deadlock. */
export async function lockKeySets(tx: Queryable, emails: string[], mobiles: string[]) {
  await lockBesideImports(tx);
  const sorted = (keys: string[]) => [...new Set(keys)].sort();
  await tx.query(sql`SELECT count(pg_advisory_xact_lock(${LOCK_EMAIL}::int, hashtext(k))) AS n FROM unnest(${sorted(emails)}::text[]) WITH ORDINALITY AS u(k, i) GROUP BY ()`);
  await tx.query(sql`SELECT count(pg_advisory_xact_lock(${LOCK_MOBILE}::int, hashtext(k))) AS n FROM unnest(${sorted(mobiles)}::text[]) WITH ORDINALITY AS u(k, i) GROUP BY ()`);
}

export type DuplicateMatch = { email: number | null; mobile: number | null };

/** Waits for, then holds until commit, the locks of this email and mobile (always in this order). */
export async function lockDuplicateKeys(tx: Queryable, email: string, mobile: string) {
  await lockBesideImports(tx);
  await tx.query(sql`SELECT 1 AS locked FROM pg_advisory_xact_lock(${LOCK_EMAIL}::int, hashtext(${emailKey(email)}))`);
  await tx.query(sql`SELECT 1 AS locked FROM pg_advisory_xact_lock(${LOCK_MOBILE}::int, hashtext(${mobile}))`);
}

/** Ids of the earliest subscribers with this email and with this mobile, if any. */
export async function findDuplicates(tx: Queryable, email: string | null, mobile: string | null, beforeId?: number): Promise<DuplicateMatch> {
  // An edited subscriber is compared only with earlier ones.
  const earlier = beforeId === undefined ? sql`` : sql`AND id < ${beforeId}`;
  const [row] = await tx.query<DuplicateMatch>(sql`SELECT
      ${email === null ? sql`NULL::int` : sql`(SELECT min(id) FROM subscribers WHERE lower(email) = ${emailKey(email)} ${earlier})`} AS email,
      ${mobile === null ? sql`NULL::int` : sql`(SELECT min(id) FROM subscribers WHERE mobile = ${mobile} ${earlier})`} AS mobile`);
  return row ?? { email: null, mobile: null };
}

export const isDuplicate = (match: DuplicateMatch) => match.email !== null || match.mobile !== null;

/** Decides again the duplicate flag of later subscribers sharing these keys, without moving their version; returns the ids changed. */
export async function reevaluateLater(tx: Queryable, afterId: number, emails: string[], mobiles: string[]): Promise<number[]> {
  const keys = [...new Set(emails.map(emailKey))];
  const rows = await tx.query<{ id: number }>(sql`
    WITH candidates AS (
      SELECT t.id, (EXISTS (SELECT 1 FROM subscribers e WHERE lower(e.email) = lower(t.email) AND e.id < t.id)
                 OR EXISTS (SELECT 1 FROM subscribers e WHERE e.mobile = t.mobile AND e.id < t.id)) AS duplicate
        FROM subscribers t
       WHERE t.id > ${afterId} AND (lower(t.email) = ANY(${keys}::text[]) OR t.mobile = ANY(${[...new Set(mobiles)]}::text[])))
    UPDATE subscribers s SET is_duplicate = c.duplicate
      FROM candidates c WHERE s.id = c.id AND s.is_duplicate <> c.duplicate
    RETURNING s.id`);
  return rows.map((r) => r.id).sort((a, b) => a - b);
}
