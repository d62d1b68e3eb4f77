import "server-only";
import { randomBytes } from "node:crypto";
import type { SessionUser } from "@/lib/auth/permissions";
import { hashPassword } from "@/lib/auth/password";
import { clearTwoFactor } from "@/lib/auth/two-factor";
import { branchScope, covers, LIVE_BRANCHES } from "@/lib/auth/scope";
import { deleteExportFiles } from "@/lib/export/files";
import { passwordProblem } from "@/lib/auth/password-policy";
import { databaseAppError, isLastAdmin } from "@/lib/db/errors";
import { sql } from "@/lib/db/sql";
import { AppError, conflict } from "@/lib/errors";
import { problem } from "@/lib/i18n/problem";
import { makePasswordLink } from "./links";
import { readUser, serializeUser, type UserRow } from "./queries";
import { ADMIN_SCOPE, type UserUpdateInput } from "./schema";
import { refusedWrite, transaction, type Tx } from "@/lib/db/transaction";

// Each change is written with its audit event in one transaction, under locks on the active
// admins' rows, so two admins changing each other at once take turns; the actor's own role is read
// again there (docs/decisions/0011-people-tokens-and-sessions.md). That one active admin always
// remains is the database's rule (a trigger on users: 422 `last_admin`), whatever path changes them.

const refused = refusedWrite("The user", "email", problem("users.emailTaken"));
const userNotFound = () => new AppError(404, "not_found", problem("users.notFound"));

function translate(error: unknown): never {
  // The database's own refusal (the trigger that keeps an active admin), as callers outside a route see it too.
  if (isLastAdmin(error)) throw databaseAppError(error) ?? error;
  try {
    return refused(error);
  } catch (refusal) {
    throw AppError.is(refusal) && refusal.status === 404 ? userNotFound() : refusal;
  }
}

export type NewUser = { name: string; email: string; role: "admin" | "staff"; password?: string; branch_ids?: number[] | null };

/** 400 unless every id names a branch (the caller is an admin: nothing is hidden from them). */
async function checkBranches(tx: Tx, ids: number[]) {
  const found = new Set((await tx.query<{ id: number }>(sql`SELECT id FROM ${LIVE_BRANCHES} b WHERE id = ANY(${ids}::int[])`)).map((r) => r.id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) {
    const message = problem("users.noBranch", { ids: `${missing.slice(0, 10).join(", ")}${missing.length > 10 ? ", …" : ""}`, count: missing.length });
    throw new AppError(400, "invalid_input", message, { branch_ids: [message] });
  }
}

/** Sets a user's branch scope (null: every branch); checked against the branches first. */
async function writeScope(tx: Tx, id: number, ids: number[] | null) {
  if (ids) await checkBranches(tx, ids);
  await tx.query(sql`DELETE FROM user_branches WHERE user_id = ${id}`);
  if (ids?.length) await tx.query(sql`INSERT INTO user_branches (user_id, branch_id) SELECT ${id}, unnest(${ids}::int[])`);
  await tx.query(sql`UPDATE users SET branch_scoped = ${ids !== null} WHERE id = ${id}`);
}

const userRow = async (tx: Tx, id: number): Promise<UserRow> => {
  const row = await readUser(tx, id);
  if (!row) throw userNotFound();
  return row;
};

/** `actor` is null for `npm run user:create` (the first admin). */
export async function createUser(input: NewUser, actor: SessionUser | null): Promise<{ user: UserRow; setPasswordUrl: string | null }> {
  if (input.password !== undefined) {
    const weak = await passwordProblem(input.password, [input.name, input.email]);
    if (weak) throw new AppError(400, "invalid_input", weak, { password: [weak] });
  }
  // Without a password, one nobody knows: the account cannot be signed in to until the link is used.
  const hash = await hashPassword(input.password ?? randomBytes(32).toString("base64url"));
  return transaction(async (tx) => {
      if (actor) await lockActiveAdmin(tx, actor);
      const created = await tx.user.create({ data: { name: input.name, email: input.email, role: input.role, password_hash: hash }, select: { id: true } });
      if (input.branch_ids !== undefined) {
        if (input.role === "admin") throw new AppError(400, "invalid_input", ADMIN_SCOPE, { branch_ids: [ADMIN_SCOPE] });
        await writeScope(tx, created.id, input.branch_ids);
      }
      const user = await userRow(tx, created.id);
      const setPasswordUrl = input.password === undefined ? await makePasswordLink(tx, user.id, actor) : null;
      await tx.audit({
        action: "user.create",
        actor,
        actorEmail: actor ? undefined : "npm run user:create",
        entity: "user",
        entityId: user.id,
        // A code, not words: the audit page says it in the reader's language (lib/audit/describe.ts).
        after: { ...serializeUser(user), password: input.password === undefined ? "link" : "set" },
      });
      return { user, setPasswordUrl };
    })
    .catch(translate);
}

/** Locks the active administrators' rows and counts them: concurrent changes take turns here. */
async function activeAdmins(tx: Tx): Promise<number[]> {
  const rows = await tx.query<{ id: number }>(sql`SELECT id FROM users WHERE role = 'admin' AND active ORDER BY id FOR UPDATE`);
  return rows.map((r) => r.id);
}

const noLongerAdmin = () => new AppError(403, "forbidden", problem("users.noLongerAdmin"));

/** 403 unless the actor is an active admin now, under a share lock: a demotion of theirs waits for this change. */
async function lockActiveAdmin(tx: Tx, actor: Pick<SessionUser, "id">): Promise<void> {
  const rows = await tx.query(sql`SELECT id FROM users WHERE id = ${actor.id} AND role = 'admin' AND active FOR SHARE`);
  if (rows.length === 0) throw noLongerAdmin();
}

/** 409 when an admin would demote or deactivate themself; 422 `last_admin` (the trigger) when no active administrator would remain. */
export async function updateUser(id: number, changes: UserUpdateInput, actor: SessionUser): Promise<UserRow> {
  if (id === actor.id && (changes.role === "staff" || changes.active === false)) {
    throw conflict(problem("users.selfDemote"));
  }
  let withdrawn: string[] = [];
  const updated = await transaction(async (tx) => {
      const admins = await activeAdmins(tx);
      const before = await readUser(tx, id);
      if (!before) throw userNotFound();
      const { branch_ids: scope, ...fields } = changes;
      const role = changes.role ?? before.role;
      if (scope !== undefined && role === "admin") throw new AppError(400, "invalid_input", ADMIN_SCOPE, { branch_ids: [ADMIN_SCOPE] });
      // The write comes before the actor's check: it is rolled back if that fails, and the last
      // admin's refusal (raised by the write) is the answer that says what happened.
      if (Object.keys(fields).length) await tx.user.update({ where: { id }, data: fields, select: { id: true } });
      // Only fires for an actor who lost the role meanwhile.
      if (!admins.includes(actor.id)) throw noLongerAdmin();
      // An administrator sees every branch: a promotion drops the scope (a demotion leaves every branch until one is set).
      if (scope !== undefined || (role === "admin" && before.branch_ids !== null)) await writeScope(tx, id, scope ?? null);
      const user = await userRow(tx, id);
      const entry = { actor, entity: "user", entityId: id } as const;
      if (changes.name !== undefined && changes.name !== before.name) {
        await tx.audit({ ...entry, action: "user.update", before: { name: before.name }, after: { name: user.name } });
      }
      if (changes.role !== undefined && changes.role !== before.role) {
        await tx.audit({ ...entry, action: "user.role_change", before: { role: before.role }, after: { role: user.role } });
      }
      if (changes.active !== undefined && changes.active !== before.active) {
        await tx.audit({ ...entry, action: user.active ? "user.reactivate" : "user.deactivate", before: { active: before.active }, after: { active: user.active } });
      }
      if (JSON.stringify(user.branch_ids) !== JSON.stringify(before.branch_ids)) {
        await tx.audit({ ...entry, action: "user.scope_change", before: { branch_ids: before.branch_ids }, after: { branch_ids: user.branch_ids } });
        // Their export files were made under the wider scope: withdrawn, so none shows what they no longer see.
        if (!covers(branchScope(user), branchScope(before))) {
          const rows = await tx.query<{ id: string }>(sql`DELETE FROM subscriber_exports WHERE user_id = ${id} AND status <> 'in_queue' RETURNING id`);
          withdrawn = rows.map((r) => r.id);
        }
      }
      return user;
    })
    .catch(translate);
  // After the commit; a file left behind by a failure here has no row and is purged as a stray.
  await deleteExportFiles(withdrawn);
  return updated;
}

export const SELF_RESET_MESSAGE = problem("users.selfReset", { page: "/account" });

/** Never for the actor themself: /account requires the current password (409, pointing there). */
export async function resetPassword(id: number, actor: SessionUser): Promise<{ user: UserRow; setPasswordUrl: string }> {
  if (id === actor.id) throw conflict(SELF_RESET_MESSAGE);
  return transaction(async (tx) => {
      await lockActiveAdmin(tx, actor);
      const user = await userRow(tx, id);
      const setPasswordUrl = await makePasswordLink(tx, id, actor);
      await tx.audit({ action: "user.password_reset", actor, entity: "user", entityId: id, after: { link_expires_in_hours: 24 } });
      return { user, setPasswordUrl };
    })
    .catch(translate);
}

export const SELF_TWO_FACTOR_MESSAGE = problem("users.selfTwoFactor", { page: "/account/two-factor" });

/** Clears another user's two-factor codes (a lost phone) and ends their sessions: they sign in again with the password alone. */
export async function resetTwoFactor(id: number, actor: SessionUser): Promise<UserRow> {
  if (id === actor.id) throw conflict(SELF_TWO_FACTOR_MESSAGE);
  return transaction(async (tx) => {
      await lockActiveAdmin(tx, actor);
      const before = await userRow(tx, id);
      await clearTwoFactor(tx, id);
      await tx.user.update({ where: { id }, data: { session_version: { increment: 1 } }, select: { id: true } });
      await tx.audit({ action: "user.two_factor_reset", actor, entity: "user", entityId: id, before: { two_factor: before.two_factor }, after: { two_factor: false } });
      return userRow(tx, id);
    })
    .catch(translate);
}

/**
 * Unlinks a user from their single sign-on subject, so that the next person to sign in with the
 * account's verified email links it again; their sessions end, as the person behind the account
 * may change. Unlinking an account that is not linked changes nothing and is no error (204).
 */
export async function unlinkSso(id: number, actor: SessionUser): Promise<UserRow> {
  return transaction(async (tx) => {
      await lockActiveAdmin(tx, actor);
      const [link] = await tx.query<{ sso_subject: string | null; sso_issuer: string | null }>(sql`SELECT sso_subject, sso_issuer FROM users WHERE id = ${id} FOR UPDATE`);
      if (!link) throw userNotFound();
      if (link.sso_subject !== null) {
        await tx.user.update({ where: { id }, data: { sso_subject: null, sso_issuer: null, session_version: { increment: 1 } }, select: { id: true } });
        await tx.audit({ action: "user.sso_unlink", actor, entity: "user", entityId: id, before: { subject: link.sso_subject, issuer: link.sso_issuer }, after: { subject: null } });
      }
      return userRow(tx, id);
    })
    .catch(translate);
}
