import "server-only";
import { emailKey } from "./schema";
import { sql, type Queryable } from "@/lib/db/sql";

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

/** Held until commit: the shared side of LOCK_IMPORT (before the key locks, always). */
export async function lockBesideImports(tx: Queryable) {
  await tx.query(sql`SELECT 1 AS locked FROM pg_advisory_xact_lock_shared(${LOCK_IMPORT}::int, 0)`);
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
