import { query, sql, type Queryable, type Statement } from "@/lib/db/sql";
import type { SessionUser } from "./permissions";

// The one place that decides which branches a user sees (docs/decisions/0028-branch-scope.md), and the
// sources every statement on subscribers and branches starts from (subscribersOf, branchesOf, LIVE_BRANCHES):
// the lint rule console/scoped-sources refuses the bare tables anywhere else (docs/decisions/0037-scoped-sources.md).

declare const branded: unique symbol;

/** Which branches a user's reads and writes are limited to: `null`, every branch (and subscribers without one). */
export type BranchScope = { readonly [branded]: true; readonly branchIds: readonly number[] | null };

/** The scope of this user: admins always every branch; staff their `branch_ids`, or every branch when null. */
export function branchScope(user: Pick<SessionUser, "role" | "branch_ids">): BranchScope {
  if (user.role === "admin") return Object.freeze({ branchIds: null }) as BranchScope;
  // Read with the user on every request (session, token, job); a user without it is a bug, never "everything".
  if (user.branch_ids === undefined) throw new Error("The user's branch scope was not read.");
  const ids = user.branch_ids === null ? null : Object.freeze([...new Set(user.branch_ids)].sort((a, b) => a - b));
  return Object.freeze({ branchIds: ids }) as BranchScope;
}

/** The branches not in the trash, everyone's (docs/decisions/0031-trash.md); like every source, a subquery the planner flattens. */
export const LIVE_BRANCHES = sql`(SELECT * FROM branches WHERE deleted_at IS NULL)`;

/** The branches in the trash, for what reads or restores them (the trash, a record keeping its trashed branch). */
export const TRASHED_BRANCHES = sql`(SELECT * FROM branches WHERE deleted_at IS NOT NULL)`;

/** The user's `branch_ids` as every read of a user selects it (over `users u`): NULL unless a scoped staff member; branches in the trash left out. */
export const USER_BRANCH_IDS = sql`CASE WHEN u.role = 'admin' OR NOT u.branch_scoped THEN NULL
  ELSE ARRAY(SELECT ub.branch_id FROM user_branches ub JOIN ${LIVE_BRANCHES} tb ON tb.id = ub.branch_id WHERE ub.user_id = u.id ORDER BY ub.branch_id) END AS branch_ids`;

/** A scoped user's live branch names, by name, as the session reads them (NULL unless scoped): the header names them with no query of its own. */
export const USER_BRANCH_NAMES = sql`CASE WHEN u.role = 'admin' OR NOT u.branch_scoped THEN NULL
  ELSE ARRAY(SELECT b.name FROM user_branches ub JOIN ${LIVE_BRANCHES} b ON b.id = ub.branch_id WHERE ub.user_id = u.id ORDER BY lower(b.name), b.id) END AS branch_names`;

/** Every branch's subscribers, whoever asks: only for what the duplicate rule decides for everyone alike (docs/decisions/0037-scoped-sources.md). */
export const EVERY_BRANCH = branchScope({ role: "admin", branch_ids: null });

/** The scope of a job's user, read when the job runs (with `db`: inside its transaction); a user who is gone or inactive sees nothing. */
export async function branchScopeOfUser(userId: number, db: Queryable = { query }): Promise<BranchScope> {
  const [user] = await db.query<Pick<SessionUser, "role" | "branch_ids"> & { active: boolean }>(
    sql`SELECT u.role::text AS role, u.active, ${USER_BRANCH_IDS} FROM users u WHERE u.id = ${userId}`);
  if (!user || !user.active) return branchScope({ role: "staff", branch_ids: [] });
  return branchScope(user);
}

/** The subscribers the scope sees, the start of every statement on them: `FROM ${subscribersOf(scope)} s` (trashed ones are moved out of the table). */
export function subscribersOf(scope: BranchScope): Statement {
  const inside = scopeCondition(scope, sql`branch_id`);
  return inside ? sql`(SELECT * FROM subscribers WHERE ${inside})` : sql`subscribers`;
}

/** The live branches the scope sees, the start of every statement on them: `FROM ${branchesOf(scope)} b`. */
export function branchesOf(scope: BranchScope): Statement {
  const inside = scopeCondition(scope, sql`id`);
  return inside ? sql`(SELECT * FROM branches WHERE deleted_at IS NULL AND ${inside})` : LIVE_BRANCHES;
}

/** The scope's predicate on a branch id column (`s.branch_id`, `b.id`, …); null when the scope is everything. */
export function scopeCondition(scope: BranchScope, column: Statement): Statement | null {
  const ids = scope.branchIds;
  if (ids === null) return null;
  if (ids.length === 0) return sql`false`;
  // One branch as an equality, so the planner walks the (branch_id, …) indexes in order.
  if (ids.length === 1) return sql`${column} = ${ids[0]!}`;
  return sql`${column} = ANY(${[...ids]}::int[])`;
}

/** Whether a subscriber of this branch (null: none) is in the scope. */
export const inScope = (scope: BranchScope, branchId: number | null | undefined): boolean =>
  scope.branchIds === null || (branchId != null && scope.branchIds.includes(branchId));

export const isScoped = (scope: BranchScope): boolean => scope.branchIds !== null;

/** Whether every row `inner` lets through, `outer` lets through too: a job's work made under `inner` may be shown under `outer`. */
export const covers = (outer: BranchScope, inner: BranchScope): boolean =>
  outer.branchIds === null || (inner.branchIds !== null && inner.branchIds.every((id) => outer.branchIds!.includes(id)));
