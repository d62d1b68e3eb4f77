// What each role may do. Pure functions: the UI asks them to decide what to show, and the
// server guards (lib/auth/guards.ts) ask the same ones to decide what to allow.

import type { Locale } from "@/lib/i18n/locales";

export type Role = "admin" | "staff";
export type SessionUser = {
  id: number;
  name: string;
  email: string;
  role: Role;
  /** The branches a staff member is limited to; null: every branch (always for admins). Turned into a BranchScope by lib/auth/scope.ts only. */
  branch_ids: readonly number[] | null;
  /** A scoped staff member's branch names, read with the session for the header (null: every branch; absent for a token's user). */
  branch_names?: readonly string[] | null;
  /** The user's display settings (read with the session, so pages need no query of their own). */
  preferences?: unknown;
  /** The user's chosen language (null: the browser's); read with the session, absent for a token's user. */
  locale?: Locale | null;
};

export const canManageBranches = (user: Pick<SessionUser, "role"> | null | undefined) => user?.role === "admin";
export const canCreateSubscribers = (user: SessionUser | null | undefined) => Boolean(user);
export const canReadAudit = (user: Pick<SessionUser, "role"> | null | undefined) => user?.role === "admin";
/** Merging duplicates (and undoing a merge) trashes subscribers, so it is an administrator's, as deletion is. */
export const canMergeSubscribers = (user: Pick<SessionUser, "role"> | null | undefined) => user?.role === "admin";
export const canManageUsers = (user: Pick<SessionUser, "role"> | null | undefined) => user?.role === "admin";
/** The trash: seeing, restoring and erasing deleted records (docs/decisions/0031-trash.md). */
export const canManageTrash = (user: Pick<SessionUser, "role"> | null | undefined) => user?.role === "admin";
/** Outgoing webhooks: where the console's events go, so an administrator's (docs/API.md, Webhooks). */
export const canManageWebhooks = (user: Pick<SessionUser, "role"> | null | undefined) => user?.role === "admin";

/** A saved view: its owner's, and everyone's to open once shared (docs/decisions/0027-saved-views.md). */
type ViewAccess = { owner_id: number; shared: boolean };
export const canSeeView = (user: Pick<SessionUser, "id">, view: ViewAccess) => view.owner_id === user.id || view.shared;
/** Its owner changes it; an administrator also changes or deletes a shared one. */
export const canChangeView = (user: Pick<SessionUser, "id" | "role">, view: ViewAccess) =>
  view.owner_id === user.id || (view.shared && user.role === "admin");
