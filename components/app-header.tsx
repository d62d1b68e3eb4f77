import Link from "next/link";
import { canManageTrash, canManageUsers, canReadAudit, type SessionUser } from "@/lib/auth/permissions";
import { nameList } from "@/lib/format";
import { NavLink } from "./nav-link";
import { SignOutButton } from "./sign-out-button";

/** `signOut` is the server action the header's "Sign out" form posts to; `branches`: a scoped user's branches, named on every page. */
export function AppHeader({ user, signOut, branches }: { user: SessionUser; signOut: () => Promise<void>; branches: readonly string[] | null }) {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3 sm:px-6 lg:px-8">
        <Link href="/subscribers" className="text-base font-semibold tracking-tight text-slate-900">
          Console
        </Link>
        <nav aria-label="Main" className="flex flex-wrap items-center gap-1">
          <NavLink href="/subscribers">Subscribers</NavLink>
          <NavLink href="/branches">Branches</NavLink>
          <NavLink href="/activity">Activity</NavLink>
          {canManageUsers(user) ? <NavLink href="/users">Users</NavLink> : null}
          {canReadAudit(user) ? <NavLink href="/audit">Audit log</NavLink> : null}
          {canManageTrash(user) ? <NavLink href="/trash">Trash</NavLink> : null}
        </nav>
        <div className="ml-auto flex items-center gap-3 text-sm">
          <span className="text-right leading-tight">
            <Link href="/account" className="block hover:text-brand-700" title="Your account: password and API tokens">
              <bdi className="block font-medium text-slate-900">{user.name}</bdi>
            </Link>
            <span className="block text-xs text-slate-500" data-testid="user-role">
              {user.role === "admin" ? "Administrator" : "Staff"}
            </span>
            {branches ? (
              // The first few names; the whole list is /branches, which shows a scoped user theirs only.
              <Link href="/branches" className="block max-w-xs text-xs text-slate-600 hover:text-brand-700" data-testid="user-branches" title={branches.join(", ")}>
                {branches.length ? <>Your branches: <bdi>{nameList(branches)}</bdi></> : "No branches: ask an administrator"}
              </Link>
            ) : null}
          </span>
          <form action={signOut}>
            <SignOutButton />
          </form>
        </div>
      </div>
    </header>
  );
}
