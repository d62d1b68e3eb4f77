import "server-only";
import { Prisma } from "@/lib/generated/prisma/client";
import { emailKey } from "./schema";

// The duplicate rule: a subscriber is a duplicate when an EARLIER subscriber has the same email
// (trimmed, case ignored) or the same mobile (the same E.164 number). The server decides it, in
// the transaction that inserts the row, after taking advisory locks on both keys: two concurrent
// creations of the same person serialize, and exactly the later one is flagged.

type Tx = Pick<Prisma.TransactionClient, "$queryRaw" | "$executeRaw">;

/** Lock namespaces (the first key of the two-key advisory lock), so an email never shares a key with a mobile. */
export const LOCK_EMAIL = 41_001;
export const LOCK_MOBILE = 41_002;

export type DuplicateMatch = { email: number | null; mobile: number | null };

/** Waits for, then holds until commit, the locks of this email and mobile (always in this order). */
export async function lockDuplicateKeys(tx: Tx, email: string, mobile: string) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_EMAIL}::int, hashtext(${emailKey(email)}))`;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_MOBILE}::int, hashtext(${mobile}))`;
}

/**
 * The earliest subscriber with this email and the earliest with this mobile (ids), if any.
 * `lower(email)` is served by subscribers_email_lower_idx, `mobile` by (mobile, id).
 */
export async function findDuplicates(tx: Tx, email: string | null, mobile: string | null): Promise<DuplicateMatch> {
  const [row] = await tx.$queryRaw<DuplicateMatch[]>`SELECT
      ${email === null ? Prisma.sql`NULL::int` : Prisma.sql`(SELECT min(id) FROM subscribers WHERE lower(email) = ${emailKey(email)})`} AS email,
      ${mobile === null ? Prisma.sql`NULL::int` : Prisma.sql`(SELECT min(id) FROM subscribers WHERE mobile = ${mobile})`} AS mobile`;
  return row ?? { email: null, mobile: null };
}

export const isDuplicate = (match: DuplicateMatch) => match.email !== null || match.mobile !== null;
