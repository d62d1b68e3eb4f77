// What each role may do. Pure functions: the UI asks them to decide what to show, and the
// server guards (lib/auth/guards.ts) ask the same ones to decide what to allow.

export type Role = "admin" | "staff";
export type SessionUser = {
  id: number;
  name: string;
  email: string;
  role: Role;
  /** The branches a staff member is limited to; null: every branch (always for admins). Turned into a BranchScope by lib/auth/scope.ts only. */
  branch_ids: readonly number[] | null;
  /** The user's display settings (read with the session, so pages need no query of their own). */
  preferences?: unknown;
};

export const canManageBranches = (user: Pick<SessionUser, "role"> | null | undefined) => user?.role === "admin";
export const canCreateSubscribers = (user: SessionUser | null | undefined) => Boolean(user);
export const canReadAudit = (user: Pick<SessionUser, "role"> | null | undefined) => user?.role === "admin";
export const canManageUsers = (user: Pick<SessionUser, "role"> | null | undefined) => user?.role === "admin";
