"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { useTranslations } from "next-intl";
import { notify } from "@/components/toast";
import { buttonClass } from "@/components/ui/button-styles";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Disclosure } from "@/components/ui/disclosure";
import type { Role } from "@/lib/auth/permissions";
import { changeRoleAction, resetPasswordAction, resetTwoFactorAction, setActiveAction, unlinkSsoAction } from "./actions";
import type { BranchChoice } from "./branch-picker";
import { BranchScopeDialog } from "./branch-scope-dialog";
import { LinkDialog } from "./link-dialog";
import { callAction } from "@/components/ui/call-action";

type Row = { id: number; name: string; email: string; role: Role; active: boolean; branch_ids: number[] | null; two_factor: boolean; sso_linked: boolean };
type Pending = null | "role" | "active" | "reset" | "branches" | "two-factor" | "sso";

const item = "rounded-md px-2.5 py-2 text-start text-sm font-medium text-slate-700 hover:bg-slate-100 disabled:opacity-50";

/**
 * One menu a row (a disclosure: Enter or Space opens it, Escape closes it), every action behind a
 * confirmation naming the user. On your own row, role and deactivation are disabled and the password is /account's.
 */
export function UserRowActions({ user, self, branches }: { user: Row; self: boolean; branches: BranchChoice[] }) {
  const t = useTranslations("users");
  const router = useRouter();
  const id = useId();
  const [pending, start] = useTransition();
  const [confirming, setConfirming] = useState<Pending>(null);
  const [link, setLink] = useState<string | null>(null);

  type Answer = { ok: true; message?: string; data?: unknown } | { ok: false; formError?: string };
  const run = <R extends Answer>(work: () => Promise<R>, failure: string, done?: (result: Extract<R, { ok: true }>) => void) =>
    start(async () => {
      const result = await callAction(work);
      if (!result) return notify("error", t("actions.offline", { failure }));
      setConfirming(null);
      if (!result.ok) notify("error", result.formError ?? failure);
      else if (done) done(result as Extract<R, { ok: true }>);
      else {
        if (result.message) notify("success", result.message);
        router.refresh();
      }
    });

  const otherRole: Role = user.role === "admin" ? "staff" : "admin";
  // Choosing an item closes the menu; its dialog returns focus to the menu's button.
  const choose = (what: NonNullable<Pending>) => (e: React.MouseEvent<HTMLButtonElement>) => {
    const menu = e.currentTarget.closest("details");
    menu?.removeAttribute("open");
    menu?.querySelector("summary")?.focus();
    setConfirming(what);
  };
  const danger = `${item} text-red-700 hover:bg-red-50`;
  return (
    <>
      <Disclosure className="group inline-block text-start">
        <summary
          aria-label={t("actions.menuLabel", { name: user.name })}
          className={`${buttonClass.secondary} cursor-pointer list-none px-2.5 py-1.5 [&::-webkit-details-marker]:hidden`}
        >
          {t("table.actions")}
          <span aria-hidden="true" className="text-slate-400 transition-transform group-open:rotate-180">
            ▾
          </span>
        </summary>
        {/* In the row, not over it: the table scrolls sideways and would cut a floating panel. */}
        <div className="mt-1 flex w-52 flex-col rounded-lg border border-slate-200 bg-white p-1 text-start whitespace-normal shadow-md">
          {user.role === "staff" ? (
            <RowButton className={item} disabled={pending} onClick={choose("branches")} label={t("actions.branchesLabel", { name: user.name })}>
              {t("actions.branches")}
            </RowButton>
          ) : null}
          {self ? (
            // Your own password is changed on /account, with the current one (the server refuses a self-reset too).
            <Link href="/account" className={item}>
              {t("actions.changePassword")}
            </Link>
          ) : (
            <RowButton className={item} disabled={pending} onClick={choose("reset")} label={t("actions.resetPasswordLabel", { name: user.name })}>
              {t("actions.resetPassword")}
            </RowButton>
          )}
          {user.two_factor && !self ? (
            <RowButton className={item} disabled={pending} onClick={choose("two-factor")} label={t("actions.resetTwoFactorLabel", { name: user.name })}>
              {t("actions.resetTwoFactor")}
            </RowButton>
          ) : null}
          {user.sso_linked && !self ? (
            <RowButton className={item} disabled={pending} onClick={choose("sso")} label={t("actions.unlinkSsoLabel", { name: user.name })}>
              {t("actions.unlinkSso")}
            </RowButton>
          ) : null}
          {/* Role and deactivation last, apart: never one slip from each other or from the rest. */}
          <div role="separator" className="my-1 border-t border-slate-100" />
          <RowButton
            className={danger}
            disabled={pending || self}
            title={self ? t("actions.selfRole") : undefined}
            onClick={choose("role")}
            label={user.role === "admin" ? t("actions.makeStaffLabel", { name: user.name }) : t("actions.makeAdminLabel", { name: user.name })}
          >
            {user.role === "admin" ? t("actions.makeStaff") : t("actions.makeAdmin")}
          </RowButton>
          <RowButton
            className={user.active ? danger : `${item} text-emerald-700 hover:bg-emerald-50`}
            disabled={pending || (self && user.active)}
            title={self && user.active ? t("actions.selfDeactivate") : undefined}
            onClick={choose("active")}
            label={user.active ? t("actions.deactivateLabel", { name: user.name }) : t("actions.reactivateLabel", { name: user.name })}
          >
            {user.active ? t("actions.deactivate") : t("actions.reactivate")}
          </RowButton>
          {self ? <p className="px-2.5 py-1 text-xs text-slate-500">{t("actions.selfNote")}</p> : null}
        </div>
      </Disclosure>

      <ConfirmDialog
        open={confirming === "sso"}
        title={t("confirm.ssoTitle", { name: user.name })}
        confirmLabel={t("confirm.ssoConfirm")}
        pending={pending}
        onConfirm={() => run(() => unlinkSsoAction({ id: user.id }), t("confirm.ssoFailed"))}
        onClose={() => setConfirming(null)}
      >
        {t.rich("confirm.ssoBody", { email: user.email, bdi: (chunks) => <bdi>{chunks}</bdi> })}
      </ConfirmDialog>
      <ConfirmDialog
        open={confirming === "two-factor"}
        title={t("confirm.twoFactorTitle", { name: user.name })}
        confirmLabel={t("confirm.twoFactorConfirm")}
        pending={pending}
        onConfirm={() => run(() => resetTwoFactorAction({ id: user.id }), t("confirm.twoFactorFailed"))}
        onClose={() => setConfirming(null)}
      >
        {t("confirm.twoFactorBody")}
      </ConfirmDialog>
      <ConfirmDialog
        open={confirming === "role"}
        title={otherRole === "admin" ? t("confirm.makeAdminTitle", { name: user.name }) : t("confirm.makeStaffTitle", { name: user.name })}
        confirmLabel={otherRole === "admin" ? t("confirm.makeAdminConfirm") : t("confirm.makeStaffConfirm")}
        pending={pending}
        onConfirm={() => run(() => changeRoleAction({ id: user.id, role: otherRole }), t("confirm.roleFailed"))}
        onClose={() => setConfirming(null)}
      >
        {otherRole === "admin" ? t("confirm.makeAdminBody") : t("confirm.makeStaffBody")}
      </ConfirmDialog>
      <ConfirmDialog
        open={confirming === "active"}
        title={user.active ? t("confirm.deactivateTitle", { name: user.name }) : t("confirm.reactivateTitle", { name: user.name })}
        confirmLabel={user.active ? t("confirm.deactivateConfirm") : t("confirm.reactivateConfirm")}
        pending={pending}
        onConfirm={() => run(() => setActiveAction({ id: user.id, active: !user.active }), t("confirm.activeFailed"))}
        onClose={() => setConfirming(null)}
      >
        {user.active ? t("confirm.deactivateBody") : t("confirm.reactivateBody")}
      </ConfirmDialog>
      <ConfirmDialog
        open={confirming === "reset"}
        title={t("confirm.resetTitle", { name: user.name })}
        confirmLabel={t("confirm.resetConfirm")}
        pending={pending}
        onConfirm={() => run(() => resetPasswordAction({ id: user.id }), t("confirm.resetFailed"), (result) => setLink(result.data.setPasswordUrl))}
        onClose={() => setConfirming(null)}
      >
        <span id={`${id}-reset`}>{t("confirm.resetBody")}</span>
      </ConfirmDialog>
      <LinkDialog url={link} name={user.name} onClose={() => setLink(null)} />
      {user.role === "staff" ? <BranchScopeDialog user={user} branches={branches} open={confirming === "branches"} onClose={() => setConfirming(null)} /> : null}
    </>
  );
}

function RowButton({ label, ...props }: { label: string; className: string; disabled: boolean; title?: string; onClick: (e: React.MouseEvent<HTMLButtonElement>) => void; children: React.ReactNode }) {
  return <button type="button" aria-label={label} {...props} />;
}
