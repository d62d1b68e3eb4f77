import "server-only";
import type { SessionUser } from "@/lib/auth/permissions";
import { prisma } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { badRequest } from "@/lib/errors";
import { problem } from "@/lib/i18n/problem";
import { decideNew, findDuplicates, lockKeySets } from "./duplicates";
import { isScoped, subscribersOf, type BranchScope } from "@/lib/auth/scope";
import { branchFrom } from "@/lib/branches/where";
import { normaliseMobile } from "./phone";
import { serializeSubscriber, type SubscriberRow } from "./queries";
import type { SubscriberValues } from "./schema";
import { query, sql, within } from "@/lib/db/sql";
import { transaction, type Tx } from "@/lib/db/transaction";

type Fields = Record<string, string[]>;

const CHECK_FIELDS = problem("common.checkFields");

/** A scoped user's subscribers need one of their branches; another branch is refused as an unknown one is. */
const OUT_OF_SCOPE = problem("subscribers.branchOutOfScope");
const BRANCH_GONE = problem("subscribers.branchGone");

/** Branch and country must exist, the branch in the user's scope; the mobile must be a valid number of the chosen country. */
export async function resolveReferences(tx: Tx, scope: BranchScope, input: SubscriberValues) {
  const fields: Fields = {};
  const [branch] = input.branch_id
    ? await tx.query<{ id: number; name: string }>(sql`SELECT b.id, b.name ${branchFrom(scope, { id: input.branch_id })}`)
    : [];
  if (input.branch_id && !branch) fields.branch_id = [isScoped(scope) ? OUT_OF_SCOPE : BRANCH_GONE];
  else if (!input.branch_id && isScoped(scope)) fields.branch_id = [OUT_OF_SCOPE];
  const country = input.country_id
    ? await tx.country.findUnique({ where: { id: input.country_id }, select: { id: true, name: true, code: true } })
    : null;
  if (input.country_id && !country) fields.country_id = [problem("subscribers.countryGone")];
  const mobile = normaliseMobile(input.mobile, country?.code);
  if (!mobile.ok) fields.mobile = [mobile.message];
  if (Object.keys(fields).length || !mobile.ok) throw badRequest(CHECK_FIELDS, fields);
  return { branch, country, mobile: mobile.e164 };
}

/** An existing sheet of that name (whatever its case), else a new one; safe under concurrent creation. */
export async function sheetFor(tx: Tx, name: string | null): Promise<{ id: number; name: string } | null> {
  if (!name) return null;
  const [existing] = await tx.query<{ id: number; name: string }>(sql`
    SELECT id, name FROM sheets WHERE lower(name) = lower(${name}) ORDER BY id LIMIT 1`);
  if (existing) return existing;
  const [created] = await tx.query<{ id: number; name: string }>(sql`
    INSERT INTO sheets (name) VALUES (${name})
    ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING id, name`);
  return created ?? null;
}

/** Creates a subscriber in one transaction, duplicates decided under the key locks; returns the row as the list shows it. */
export async function createSubscriber(scope: BranchScope, input: SubscriberValues, actor: SessionUser): Promise<SubscriberRow> {
  try {
    return await transaction(async (tx) => {
      const { branch, country, mobile } = await resolveReferences(tx, scope, input);
      await lockKeySets(tx, [input.email], [mobile]);
      const flags = await decideNew(tx, { email: input.email, mobile });
      const sheet = await sheetFor(tx, input.sheet_name);
      const row = await tx.subscriber.create({
        data: {
          first_name: input.first_name,
          last_name: input.last_name,
          email: input.email,
          mobile,
          branch_id: branch?.id ?? null,
          country_id: country?.id ?? null,
          sheet_id: sheet?.id ?? null,
          travel_date: input.travel_date ? new Date(`${input.travel_date}T00:00:00Z`) : null,
          subscription_status: input.subscription_status,
          ...flags,
          is_mandatory: input.is_mandatory,
        },
        select: {
          id: true,
          first_name: true,
          last_name: true,
          email: true,
          mobile: true,
          travel_date: true,
          subscription_status: true,
          is_duplicate: true,
          is_mandatory: true,
          created_at: true,
        },
      });
      const created = { ...row, branch_name: branch?.name ?? null, country_name: country?.name ?? null, sheet_name: sheet?.name ?? null };
      await tx.audit({ action: "subscriber.create", actor, entity: "subscriber", entityId: row.id, after: serializeSubscriber(created) });
      return created;
    });
  } catch (error) {
    // A branch deleted between our check and the insert: still the user's input, not a 500.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2003") {
      throw badRequest(CHECK_FIELDS, { branch_id: [BRANCH_GONE] });
    }
    throw error;
  }
}

/** The form's warning for one key: the match's id, "elsewhere" for one outside the user's scope (never its id), or null. */
export type DuplicateWarning = number | "elsewhere" | null;

/** The form's early warning: the earliest subscriber with this email and with this mobile. */
export async function checkDuplicates(scope: BranchScope, input: {
  email?: string;
  mobile?: string;
  country_id?: number | null;
  /** When editing: only subscribers before this one count. */
  before_id?: number | null;
}): Promise<{ email: DuplicateWarning; mobile: DuplicateWarning }> {
  const db = await prisma();
  const email = input.email?.trim() || null;
  let mobile: string | null = null;
  if (input.mobile?.trim()) {
    const country = input.country_id
      ? await db.country.findUnique({ where: { id: input.country_id }, select: { code: true } })
      : null;
    const parsed = normaliseMobile(input.mobile, country?.code);
    mobile = parsed.ok ? parsed.e164 : null;
  }
  if (!email && !mobile) return { email: null, mobile: null };
  const match = await findDuplicates(within(db), email, mobile, input.before_id ?? undefined);
  if (!isScoped(scope)) return match;
  const ids = [match.email, match.mobile].filter((id) => id !== null);
  const seen = new Set(ids.length ? (await query<{ id: number }>(sql`SELECT s.id FROM ${subscribersOf(scope)} s
    WHERE s.id = ANY(${ids}::int[])`)).map((r) => r.id) : []);
  const shown = (id: number | null): DuplicateWarning => (id === null ? null : seen.has(id) ? id : "elsewhere");
  return { email: shown(match.email), mobile: shown(match.mobile) };
}
