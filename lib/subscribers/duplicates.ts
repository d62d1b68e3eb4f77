import "server-only";
import { emailKey } from "./schema";
import { config } from "@/lib/config";
import { isLockTimeout } from "@/lib/db/errors";
import { sql, type Queryable } from "@/lib/db/sql";
import { AppError } from "@/lib/errors";

// The duplicate rule: a subscriber is a duplicate when an EARLIER subscriber has the same email
// (trimmed, case ignored) or the same mobile (the same E.164 number). The server decides it, in
// the transaction that inserts the row, after taking advisory locks on both keys: two concurrent
// creations of the same person serialize, and exactly the later one is flagged.


/** Lock namespaces (the first key of the two-key advisory lock), so an email never shares a key with a mobile. */
export const LOCK_EMAIL = 41_001;
export const LOCK_MOBILE = 41_002;
/**
 * An import (lib/imports/run.ts) decides the duplicates of all its rows at once, set-based, and
 * cannot lock a million keys: it takes this lock exclusively for its one inserting transaction,
 * and every creation, edit and deletion takes it shared before its key locks. So an import and a
 * creation never decide at the same time, and two imports run their inserts one after the other.
 */
export const LOCK_IMPORT = 41_003;

/** Seconds a creation or edit refused beside an import's insert is told to wait. */
const IMPORT_RETRY_AFTER_SECONDS = 5;

/**
 * Held until commit: the shared side of LOCK_IMPORT (before the key locks, always). Free unless
 * an import is inserting its rows (one try, the usual case); then waited for in turn, at most
 * IMPORT_LOCK_WAIT_MS (`lock_timeout` for this one wait): an import of a million rows holds it
 * for a minute or more, and the person at the form gets a 503 saying so, not a request hanging.
 */
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

/**
 * Waits for, then holds until commit, the locks of many keys at once (lower-cased emails, E.164
 * mobiles): the import lock shared, then every email, then every mobile, each in sorted order, as
 * creation and edits take them, so no two transactions wait for each other in a circle.
 */
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

/**
 * The earliest subscriber with this email and the earliest with this mobile (ids), if any.
 * `lower(email)` is served by subscribers_email_lower_idx, `mobile` by (mobile, id).
 */
export async function findDuplicates(tx: Queryable, email: string | null, mobile: string | null, beforeId?: number): Promise<DuplicateMatch> {
  // An edited subscriber is compared with the ones before it (the rule's "earlier").
  const earlier = beforeId === undefined ? sql`` : sql`AND id < ${beforeId}`;
  const [row] = await tx.query<DuplicateMatch>(sql`SELECT
      ${email === null ? sql`NULL::int` : sql`(SELECT min(id) FROM subscribers WHERE lower(email) = ${emailKey(email)} ${earlier})`} AS email,
      ${mobile === null ? sql`NULL::int` : sql`(SELECT min(id) FROM subscribers WHERE mobile = ${mobile} ${earlier})`} AS mobile`);
  return row ?? { email: null, mobile: null };
}

export const isDuplicate = (match: DuplicateMatch) => match.email !== null || match.mobile !== null;
