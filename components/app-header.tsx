import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { canManageTrash, canManageUsers, canManageWebhooks, canReadAudit, type SessionUser } from "@/lib/auth/permissions";
import { NavLink } from "./nav-link";
import { SignOutButton } from "./sign-out-button";

/** `signOut` is the server action the header's "Sign out" form posts to; `branches`: a scoped user's branches, named on every page. */
export async function AppHeader({ user, signOut, branches }: { user: SessionUser; signOut: () => Promise<void>; branches: readonly string[] | null }) {
  const t = await getTranslations("header");
  const tc = await getTranslations("common");
  // The first few names; the whole list is /branches, which shows a scoped user theirs only.
  const SHOWN = 3;
  return (
    <header className="border-b border-slate-200 bg-white">
      {/* On a phone: the name and Sign out beside "Console", the menu in one row under them. */}
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-1.5 px-4 py-2 sm:gap-y-2 sm:px-6 sm:py-3 lg:px-8">
        <Link href="/subscribers" className="text-base font-semibold tracking-tight text-slate-900">
          {tc("appName")}
        </Link>
        <nav aria-label={t("navLabel")} className="order-last -mx-2 flex w-full flex-wrap items-center gap-x-0.5 sm:order-none sm:mx-0 sm:w-auto sm:gap-1 max-sm:[&>a]:px-1.5">
          <NavLink href="/subscribers">{t("nav.subscribers")}</NavLink>
          <NavLink href="/branches">{t("nav.branches")}</NavLink>
          <NavLink href="/activity">{t("nav.activity")}</NavLink>
          {canManageUsers(user) ? <NavLink href="/users">{t("nav.users")}</NavLink> : null}
          {canReadAudit(user) ? <NavLink href="/audit">{t("nav.audit")}</NavLink> : null}
          {canManageTrash(user) ? <NavLink href="/trash">{t("nav.trash")}</NavLink> : null}
          {canManageWebhooks(user) ? <NavLink href="/webhooks">{t("nav.webhooks")}</NavLink> : null}
        </nav>
        <div className="ms-auto flex items-center gap-3 text-sm">
          <span className="text-end leading-tight">
            <Link href="/account" className="block hover:text-brand-700" title={t("accountTitle")}>
              <bdi className="block font-medium text-slate-900">{user.name}</bdi>
            </Link>
            <span className="block text-xs text-slate-500" data-testid="user-role">
              {user.role === "admin" ? t("role.admin") : t("role.staff")}
            </span>
            {branches ? (
              <Link href="/branches" className="block max-w-[11rem] truncate text-xs text-slate-600 hover:text-brand-700 sm:max-w-xs" data-testid="user-branches" title={branches.join(t("nameSeparator"))}>
                {branches.length
                  ? t.rich("yourBranches", {
                      names: branches.slice(0, SHOWN).join(t("nameSeparator")),
                      more: Math.max(0, branches.length - SHOWN),
                      bdi: (chunks) => <bdi>{chunks}</bdi>,
                    })
                  : t("noBranches")}
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
