import "server-only";
import { randomBytes } from "node:crypto";
import { audit } from "@/lib/audit/log";
import { requestInfo } from "@/lib/audit/context";
import { singleSignOn } from "@/lib/config";
import { isLastAdmin } from "@/lib/db/errors";
import { sql, type Queryable } from "@/lib/db/sql";
import { hashPassword } from "./password";
import { LIVE_BRANCHES, USER_BRANCH_IDS } from "./scope";
import type { SignedInUser } from "./sign-in";
import { readIdentity, type SsoIdentity, type SsoRefusal } from "./sso-claims";
import { transaction, type Tx } from "@/lib/db/transaction";

// A single sign-on, once next-auth has checked the provider's answer (state, PKCE, the ID token's
// signature and nonce): the person is the account linked to their issuer and subject, else an
// account not yet linked with their verified email (linked now), else a new one; an account linked
// to another subject is never theirs. Their role and branch scope are set from their groups, every
// time (docs/decisions/0030-sign-in-two-factor-and-sso.md).

export type SsoOutcome = { ok: true; user: SignedInUser } | { ok: false; reason: SsoRefusal };

/** Who wrote a change made by a sign-in's groups: the person signing in, through the provider. */
const VIA = "single sign-on";

type Existing = {
  id: number;
  email: string;
  name: string;
  role: "admin" | "staff";
  active: boolean;
  session_version: number;
  sso_subject: string | null;
  sso_issuer: string | null;
  branch_ids: number[] | null;
};

/** The ids of the live branches named (in any case); unknown names are left out, and returned apart to audit. */
async function branchIds(tx: Tx, names: string[]): Promise<{ ids: number[]; unknown: string[] }> {
  const lower = [...new Set(names.map((n) => n.toLowerCase()))];
  // A branch in the trash may share its name with a live one: only the live one is meant.
  const rows = await tx.query<{ id: number; name: string }>(
    sql`SELECT id, lower(name) AS name FROM ${LIVE_BRANCHES} b WHERE lower(name) = ANY(${lower}::text[]) ORDER BY id`,
  );
  const found = new Set(rows.map((r) => r.name));
  return { ids: rows.map((r) => r.id), unknown: lower.filter((n) => !found.has(n)) };
}

/**
 * The groups' role, unless it would leave no active administrator (the database refuses that,
 * decision 0030): the last admin then keeps the role, signs in, and the refusal is audited.
 */
async function applyRole(tx: Tx, before: Existing, identity: SsoIdentity): Promise<"admin" | "staff"> {
  if (before.role === identity.role) return before.role;
  const entry = { actor: { id: before.id, email: before.email }, entity: "user", entityId: before.id } as const;
  const groups = identity.groups.slice(0, 50);
  await tx.query(sql`SAVEPOINT sso_role`);
  try {
    await tx.user.update({ where: { id: before.id }, data: { role: identity.role }, select: { id: true } });
    await tx.query(sql`RELEASE SAVEPOINT sso_role`);
  } catch (error) {
    if (!isLastAdmin(error)) throw error;
    await tx.query(sql`ROLLBACK TO SAVEPOINT sso_role`);
    await tx.audit({ ...entry, action: "user.role_change_refused", before: { role: before.role }, after: { role: identity.role, via: VIA, groups, reason: "last_admin" } });
    return before.role;
  }
  await tx.audit({ ...entry, action: "user.role_change", before: { role: before.role }, after: { role: identity.role, via: VIA, groups } });
  return identity.role;
}

/** Role and scope as the groups give them; audited as the administrators' changes are. The role the user has now. */
async function applyGroups(tx: Tx, before: Existing, identity: SsoIdentity): Promise<"admin" | "staff"> {
  const actor = { id: before.id, email: before.email };
  const entry = { actor, entity: "user", entityId: before.id } as const;
  const role = await applyRole(tx, before, identity);
  // An admin's scope is always every branch, whatever branch groups came with a refused demotion.
  const branchNames = role === "admin" ? null : identity.branchNames;
  // No prefix set: the scope stays the administrators' to give on /users.
  if (branchNames === undefined) return role;
  const wanted = branchNames ? await branchIds(tx, branchNames) : { ids: null, unknown: [] };
  await tx.query(sql`DELETE FROM user_branches WHERE user_id = ${before.id}`);
  if (wanted.ids?.length) await tx.query(sql`INSERT INTO user_branches (user_id, branch_id) SELECT ${before.id}, unnest(${wanted.ids}::int[])`);
  await tx.query(sql`UPDATE users SET branch_scoped = ${wanted.ids !== null} WHERE id = ${before.id}`);
  const [after] = await tx.query<{ branch_ids: number[] | null }>(sql`SELECT ${USER_BRANCH_IDS} FROM users u WHERE u.id = ${before.id}`);
  if (JSON.stringify(after?.branch_ids ?? null) !== JSON.stringify(before.branch_ids)) {
    const unknown = wanted.unknown.length ? { unknown_branches: wanted.unknown.slice(0, 50) } : {};
    await tx.audit({ ...entry, action: "user.scope_change", before: { branch_ids: before.branch_ids }, after: { branch_ids: after?.branch_ids ?? null, via: VIA, ...unknown } });
  }
  return role;
}

const EXISTING = sql`u.id, u.email, u.name, u.role::text AS role, u.active, u.session_version, u.sso_subject, u.sso_issuer, ${USER_BRANCH_IDS}`;

async function readByEmail(q: Queryable, email: string): Promise<Existing | null> {
  const [row] = await q.query<Existing>(sql`SELECT ${EXISTING} FROM users u WHERE u.email = ${email} FOR UPDATE`);
  return row ?? null;
}

/**
 * The account linked to this issuer and subject. A NULL issuer is a link made before issuers were
 * kept, with the one provider configured then: the configured one. Should links made then name one
 * subject twice, the account with the token's email is the one, else the oldest.
 */
async function readBySubject(q: Queryable, identity: SsoIdentity): Promise<Existing | null> {
  const [row] = await q.query<Existing>(sql`SELECT ${EXISTING} FROM users u
    WHERE u.sso_subject = ${identity.subject} AND (u.sso_issuer = ${identity.issuer} OR u.sso_issuer IS NULL)
    ORDER BY u.sso_issuer IS NULL, u.email = ${identity.email} DESC, u.id LIMIT 1 FOR UPDATE`);
  return row ?? null;
}

/** Held to the transaction's end: sign-ins of one subject, or of one email, take turns. */
const lock = (q: Queryable, key: string) => q.query(sql`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended(${key}, 0))`);

type Refused = { refused: SsoRefusal; user: Existing };

/**
 * Signs in the person an ID token's claims describe, or says why not. The first sign-in creates
 * the user (with a password nobody knows), or links the account not yet linked that has the
 * verified email; afterwards only that issuer and subject sign in to it.
 */
export async function signInWithSso(claims: Record<string, unknown>): Promise<SsoOutcome> {
  const settings = singleSignOn();
  if (!settings) throw new Error("Single sign-on is not set up.");
  const request = await requestInfo();
  const read = readIdentity(claims, settings);
  const refuse = async (reason: SsoRefusal, email: string | null, groups: string[], account?: { user: Existing; own: boolean }): Promise<SsoOutcome> => {
    const mismatch = account && !account.own ? { account_id: account.user.id, issuer: read.ok ? read.identity.issuer : null } : {};
    await audit({
      action: "auth.sso_refused",
      // The account's owner is the actor only when it is theirs; someone refused another's account is named by the email tried.
      actor: account?.own ? { id: account.user.id, email: account.user.email } : null,
      actorEmail: email ?? undefined,
      ...(account ? { entity: "user", entityId: account.user.id } : {}),
      after: { reason, subject: String(claims.sub ?? "").slice(0, 255), ...mismatch, groups: groups.slice(0, 50) },
      request,
    });
    return { ok: false, reason };
  };
  if (!read.ok) return refuse(read.reason, read.email, read.groups);
  const identity = read.identity;
  // Hashed before the transaction (scrypt is slow), used only if the user is new.
  const unknownPassword = await hashPassword(randomBytes(32).toString("base64url"));
  const outcome = await transaction(async (tx): Promise<SsoOutcome | Refused> => {
    // Always in this order: two first sign-ins of one person make one user, and of two subjects
    // with one email, one links the account and the other finds it linked.
    await lock(tx, `sso-subject:${identity.issuer}\n${identity.subject}`);
    await lock(tx, `sso-user:${identity.email}`);
    let user = await readBySubject(tx, identity);
    if (user) {
      if (!user.active) return { refused: "deactivated", user };
      if (user.sso_issuer === null) await tx.user.update({ where: { id: user.id }, data: { sso_issuer: identity.issuer }, select: { id: true } });
    } else {
      const existing = await readByEmail(tx, identity.email);
      // Linked to another subject (or to this subject of another issuer): never this person's.
      if (existing && existing.sso_subject !== null) return { refused: "subject_mismatch", user: existing };
      if (existing && !existing.active) return { refused: "deactivated", user: existing };
      if (existing) {
        await tx.user.update({ where: { id: existing.id }, data: { sso_subject: identity.subject, sso_issuer: identity.issuer }, select: { id: true } });
        await tx.audit({
          action: "user.sso_link",
          actor: { id: existing.id, email: existing.email },
          entity: "user",
          entityId: existing.id,
          before: { subject: null },
          after: { subject: identity.subject, issuer: identity.issuer, via: "verified email" },
          request,
        });
        user = existing;
      } else {
        const created = await tx.user.create({
          data: { email: identity.email, name: identity.name, role: identity.role, password_hash: unknownPassword, sso_subject: identity.subject, sso_issuer: identity.issuer },
          select: { id: true },
        });
        await tx.audit({
          action: "user.create",
          actor: { id: created.id, email: identity.email },
          entity: "user",
          entityId: created.id,
          after: { name: identity.name, email: identity.email, role: identity.role, via: VIA, subject: identity.subject, issuer: identity.issuer },
          request,
        });
        user = (await readByEmail(tx, identity.email))!;
      }
    }
    const role = await applyGroups(tx, user, identity);
    await tx.user.update({ where: { id: user.id }, data: { last_sign_in_at: new Date() }, select: { id: true } });
    await tx.audit({
      action: "auth.sign_in",
      actor: { id: user.id, email: user.email },
      after: { via: VIA, role, groups: identity.groups.slice(0, 50) },
      request,
    });
    return { ok: true, user: { id: String(user.id), email: user.email, name: user.name, role, sv: user.session_version } };
  });
  if ("refused" in outcome) return refuse(outcome.refused, identity.email, identity.groups, { user: outcome.user, own: outcome.refused === "deactivated" });
  return outcome;
}
