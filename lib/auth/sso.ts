import "server-only";
import { randomBytes } from "node:crypto";
import { audit } from "@/lib/audit/log";
import { requestInfo } from "@/lib/audit/context";
import { singleSignOn } from "@/lib/config";
import { prisma } from "@/lib/db/client";
import { sql, within } from "@/lib/db/sql";
import type { Prisma } from "@/lib/generated/prisma/client";
import { hashPassword } from "./password";
import { USER_BRANCH_IDS } from "./scope";
import type { SignedInUser } from "./sign-in";
import { readIdentity, type SsoIdentity, type SsoRefusal } from "./sso-claims";

// A single sign-on, once next-auth has checked the provider's answer (state, PKCE, the ID token's
// signature and nonce): the person is created or found by their verified email, and their role
// and branch scope are set from their groups, every time (docs/decisions/0030-sign-in-two-factor-and-sso.md).

export type SsoOutcome = { ok: true; user: SignedInUser } | { ok: false; reason: SsoRefusal };

/** Who wrote a change made by a sign-in's groups: the person signing in, through the provider. */
const VIA = "single sign-on";

type Existing = { id: number; email: string; name: string; role: "admin" | "staff"; active: boolean; session_version: number; sso_subject: string | null; branch_ids: number[] | null };

/** The ids of the branches named (in any case); unknown names are left out, and returned apart to audit. */
async function branchIds(tx: Prisma.TransactionClient, names: string[]): Promise<{ ids: number[]; unknown: string[] }> {
  const lower = [...new Set(names.map((n) => n.toLowerCase()))];
  const rows = await within(tx).query<{ id: number; name: string }>(sql`SELECT id, lower(name) AS name FROM branches WHERE lower(name) = ANY(${lower}::text[]) ORDER BY id`);
  const found = new Set(rows.map((r) => r.name));
  return { ids: rows.map((r) => r.id), unknown: lower.filter((n) => !found.has(n)) };
}

/** Role and scope as the groups give them; audited as the administrators' changes are. */
async function applyGroups(tx: Prisma.TransactionClient, before: Existing, identity: SsoIdentity): Promise<void> {
  const actor = { id: before.id, email: before.email };
  const entry = { actor, entity: "user", entityId: before.id } as const;
  if (before.role !== identity.role) {
    await tx.user.update({ where: { id: before.id }, data: { role: identity.role }, select: { id: true } });
    await audit(tx, { ...entry, action: "user.role_change", before: { role: before.role }, after: { role: identity.role, via: VIA, groups: identity.groups.slice(0, 50) } });
  }
  // No prefix set: the scope stays the administrators' to give on /users (an admin's is always every branch).
  if (identity.branchNames === undefined && identity.role !== "admin") return;
  const wanted = identity.branchNames ? await branchIds(tx, identity.branchNames) : { ids: null, unknown: [] };
  const q = within(tx);
  await q.query(sql`DELETE FROM user_branches WHERE user_id = ${before.id}`);
  if (wanted.ids?.length) await q.query(sql`INSERT INTO user_branches (user_id, branch_id) SELECT ${before.id}, unnest(${wanted.ids}::int[])`);
  await q.query(sql`UPDATE users SET branch_scoped = ${wanted.ids !== null} WHERE id = ${before.id}`);
  const [after] = await q.query<{ branch_ids: number[] | null }>(sql`SELECT ${USER_BRANCH_IDS} FROM users u WHERE u.id = ${before.id}`);
  if (JSON.stringify(after?.branch_ids ?? null) !== JSON.stringify(before.branch_ids)) {
    const unknown = wanted.unknown.length ? { unknown_branches: wanted.unknown.slice(0, 50) } : {};
    await audit(tx, { ...entry, action: "user.scope_change", before: { branch_ids: before.branch_ids }, after: { branch_ids: after?.branch_ids ?? null, via: VIA, ...unknown } });
  }
}

async function readExisting(tx: Prisma.TransactionClient, email: string): Promise<Existing | null> {
  const [row] = await within(tx).query<Existing>(sql`SELECT u.id, u.email, u.name, u.role::text AS role, u.active, u.session_version, u.sso_subject, ${USER_BRANCH_IDS}
    FROM users u WHERE u.email = ${email} FOR UPDATE`);
  return row ?? null;
}

/**
 * Signs in the person an ID token's claims describe, or says why not. The first sign-in creates
 * the user (with a password nobody knows); an existing user with that email is the same person.
 */
export async function signInWithSso(claims: Record<string, unknown>): Promise<SsoOutcome> {
  const settings = singleSignOn();
  if (!settings) throw new Error("Single sign-on is not set up.");
  const request = await requestInfo();
  const read = readIdentity(claims, settings);
  const refuse = async (reason: SsoRefusal, email: string | null, groups: string[], user?: { id: number; email: string }): Promise<SsoOutcome> => {
    await audit(await prisma(), {
      action: "auth.sso_refused",
      actor: user ?? null,
      actorEmail: email ?? undefined,
      after: { reason, subject: String(claims.sub ?? "").slice(0, 255), groups: groups.slice(0, 50) },
      request,
    });
    return { ok: false, reason };
  };
  if (!read.ok) return refuse(read.reason, read.email, read.groups);
  const identity = read.identity;
  // Hashed before the transaction (scrypt is slow), used only if the user is new.
  const unknownPassword = await hashPassword(randomBytes(32).toString("base64url"));
  const db = await prisma();
  const outcome = await db.$transaction(async (tx): Promise<SsoOutcome | { deactivated: Existing }> => {
    // Two first sign-ins of one person at once create one user: the second waits here and finds it.
    await within(tx).query(sql`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended(${`sso-user:${identity.email}`}, 0))`);
    let user = await readExisting(tx, identity.email);
    if (user && !user.active) return { deactivated: user };
    if (!user) {
      const created = await tx.user.create({
        data: { email: identity.email, name: identity.name, role: identity.role, password_hash: unknownPassword, sso_subject: identity.subject },
        select: { id: true },
      });
      await audit(tx, {
        action: "user.create",
        actor: { id: created.id, email: identity.email },
        entity: "user",
        entityId: created.id,
        after: { name: identity.name, email: identity.email, role: identity.role, via: VIA, subject: identity.subject },
        request,
      });
      user = (await readExisting(tx, identity.email))!;
    } else if (user.sso_subject !== identity.subject) {
      await tx.user.update({ where: { id: user.id }, data: { sso_subject: identity.subject }, select: { id: true } });
      await audit(tx, {
        action: "user.sso_link",
        actor: { id: user.id, email: user.email },
        entity: "user",
        entityId: user.id,
        before: { subject: user.sso_subject },
        after: { subject: identity.subject, via: "verified email" },
        request,
      });
    }
    await applyGroups(tx, user, identity);
    await tx.user.update({ where: { id: user.id }, data: { last_sign_in_at: new Date() }, select: { id: true } });
    await audit(tx, {
      action: "auth.sign_in",
      actor: { id: user.id, email: user.email },
      after: { via: VIA, role: identity.role, groups: identity.groups.slice(0, 50) },
      request,
    });
    return { ok: true, user: { id: String(user.id), email: user.email, name: user.name, role: identity.role, sv: user.session_version } };
  });
  if ("deactivated" in outcome) return refuse("deactivated", identity.email, identity.groups, outcome.deactivated);
  return outcome;
}
