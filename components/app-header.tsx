import Link from "next/link";
import { canManageTrash, canManageUsers, canManageWebhooks, canReadAudit, type SessionUser } from "@/lib/auth/permissions";
import { nameList } from "@/lib/format";
import { NavLink } from "./nav-link";
import { SignOutButton } from "./sign-out-button";

/** `signOut` is the server action the header's "Sign out" form posts to; `branches`: a scoped user's branches, named on every page. */
export function AppHeader({ user, signOut, branches }: { user: SessionUser; signOut: () => Promise<void>; branches: readonly string[] | null }) {
  return (
    <header className="border-b border-slate-200 bg-white">
      {/* On a phone: the name and Sign out beside "Console", the menu in one row under them. */}
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-1.5 px-4 py-2 sm:gap-y-2 sm:px-6 sm:py-3 lg:px-8">
        <Link href="/subscribers" className="text-base font-semibold tracking-tight text-slate-900">
          Console
        </Link>
        <nav aria-label="Main" className="order-last -mx-2 flex w-full flex-wrap items-center gap-x-0.5 sm:order-none sm:mx-0 sm:w-auto sm:gap-1 max-sm:[&>a]:px-1.5">
          <NavLink href="/subscribers">Subscribers</NavLink>
          <NavLink href="/branches">Branches</NavLink>
          <NavLink href="/activity">Activity</NavLink>
          {canManageUsers(user) ? <NavLink href="/users">Users</NavLink> : null}
          {canReadAudit(user) ? <NavLink href="/audit">Audit log</NavLink> : null}
          {canManageTrash(user) ? <NavLink href="/trash">Trash</NavLink> : null}
          {canManageWebhooks(user) ? <NavLink href="/webhooks">Webhooks</NavLink> : null}
        </nav>
        <div className="ms-auto flex items-center gap-3 text-sm">
          <span className="text-end leading-tight">
            <Link href="/account" className="block hover:text-brand-700" title="Your account: password and API tokens">
              <bdi className="block font-medium text-slate-900">{user.name}</bdi>
            </Link>
            <span className="block text-xs text-slate-500" data-testid="user-role">
              {user.role === "admin" ? "Administrator" : "Staff"}
            </span>
            {branches ? (
              // The first few names; the whole list is /branches, which shows a scoped user theirs only.
              <Link href="/branches" className="block max-w-[11rem] truncate text-xs text-slate-600 hover:text-brand-700 sm:max-w-xs" data-testid="user-branches" title={branches.join(", ")}>
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
