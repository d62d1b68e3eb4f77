"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
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
  const router = useRouter();
  const id = useId();
  const [pending, start] = useTransition();
  const [confirming, setConfirming] = useState<Pending>(null);
  const [link, setLink] = useState<string | null>(null);

  type Answer = { ok: true; message?: string; data?: unknown } | { ok: false; formError?: string };
  const run = <R extends Answer>(work: () => Promise<R>, failure: string, done?: (result: Extract<R, { ok: true }>) => void) =>
    start(async () => {
      const result = await callAction(work);
      if (!result) return notify("error", `${failure} Check your connection and try again.`);
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
          aria-label={`Actions for ${user.name}`}
          className={`${buttonClass.secondary} cursor-pointer list-none px-2.5 py-1.5 [&::-webkit-details-marker]:hidden`}
        >
          Actions
          <span aria-hidden="true" className="text-slate-400 transition-transform group-open:rotate-180">
            ▾
          </span>
        </summary>
        {/* In the row, not over it: the table scrolls sideways and would cut a floating panel. */}
        <div className="mt-1 flex w-52 flex-col rounded-lg border border-slate-200 bg-white p-1 text-start whitespace-normal shadow-md">
          {user.role === "staff" ? (
            <RowButton className={item} disabled={pending} onClick={choose("branches")} label={`Branches of ${user.name}`}>
              Branches…
            </RowButton>
          ) : null}
          {self ? (
            // Your own password is changed on /account, with the current one (the server refuses a self-reset too).
            <Link href="/account" className={item}>
              Change password
            </Link>
          ) : (
            <RowButton className={item} disabled={pending} onClick={choose("reset")} label={`Reset password of ${user.name}`}>
              Reset password…
            </RowButton>
          )}
          {user.two_factor && !self ? (
            <RowButton className={item} disabled={pending} onClick={choose("two-factor")} label={`Reset two-factor of ${user.name}`}>
              Reset two-factor…
            </RowButton>
          ) : null}
          {user.sso_linked && !self ? (
            <RowButton className={item} disabled={pending} onClick={choose("sso")} label={`Unlink single sign-on of ${user.name}`}>
              Unlink single sign-on…
            </RowButton>
          ) : null}
          {/* Role and deactivation last, apart: never one slip from each other or from the rest. */}
          <div role="separator" className="my-1 border-t border-slate-100" />
          <RowButton
            className={danger}
            disabled={pending || self}
            title={self ? "Another administrator must change your role." : undefined}
            onClick={choose("role")}
            label={`${user.role === "admin" ? "Make staff" : "Make admin"} (${user.name})`}
          >
            {user.role === "admin" ? "Make staff…" : "Make admin…"}
          </RowButton>
          <RowButton
            className={user.active ? danger : `${item} text-emerald-700 hover:bg-emerald-50`}
            disabled={pending || (self && user.active)}
            title={self && user.active ? "Another administrator must deactivate you." : undefined}
            onClick={choose("active")}
            label={user.active ? `Deactivate ${user.name}` : `Reactivate ${user.name}`}
          >
            {user.active ? "Deactivate…" : "Reactivate…"}
          </RowButton>
          {self ? <p className="px-2.5 py-1 text-xs text-slate-500">Another administrator changes your role or deactivates you.</p> : null}
        </div>
      </Disclosure>

      <ConfirmDialog
        open={confirming === "sso"}
        title={`Unlink the single sign-on of ${user.name}?`}
        confirmLabel="Unlink single sign-on"
        pending={pending}
        onConfirm={() => run(() => unlinkSsoAction({ id: user.id }), "The account could not be unlinked.")}
        onClose={() => setConfirming(null)}
      >
        They are signed out everywhere. The next person to sign in through single sign-on with <bdi>{user.email}</bdi> (a verified
        address) gets this account, its role and its history: do this when the address now belongs to someone else at your organisation.
      </ConfirmDialog>
      <ConfirmDialog
        open={confirming === "two-factor"}
        title={`Reset the two-factor sign-in of ${user.name}?`}
        confirmLabel="Reset two-factor"
        pending={pending}
        onConfirm={() => run(() => resetTwoFactorAction({ id: user.id }), "Two-factor could not be reset.")}
        onClose={() => setConfirming(null)}
      >
        Their codes and recovery codes stop working and they are signed out everywhere. They then sign in with their password alone
        and can set two-factor up again (or are asked to, when it is required).
      </ConfirmDialog>
      <ConfirmDialog
        open={confirming === "role"}
        title={otherRole === "admin" ? `Make ${user.name} an administrator?` : `Make ${user.name} staff?`}
        confirmLabel={otherRole === "admin" ? "Make administrator" : "Make staff"}
        pending={pending}
        onConfirm={() => run(() => changeRoleAction({ id: user.id, role: otherRole }), "The role could not be changed.")}
        onClose={() => setConfirming(null)}
      >
        {otherRole === "admin"
          ? "Administrators manage branches, users and the audit log. It takes effect on their next request."
          : "They keep their sessions and tokens but lose branch, user and audit administration on their next request."}
      </ConfirmDialog>
      <ConfirmDialog
        open={confirming === "active"}
        title={user.active ? `Deactivate ${user.name}?` : `Reactivate ${user.name}?`}
        confirmLabel={user.active ? "Deactivate" : "Reactivate"}
        pending={pending}
        onConfirm={() => run(() => setActiveAction({ id: user.id, active: !user.active }), "The change could not be saved.")}
        onClose={() => setConfirming(null)}
      >
        {user.active
          ? "They are signed out everywhere and their API tokens are revoked, on their next request. Nothing they made is deleted."
          : "They can sign in again. Their old sessions and tokens stay ended: they sign in afresh and make new tokens."}
      </ConfirmDialog>
      <ConfirmDialog
        open={confirming === "reset"}
        title={`Reset the password of ${user.name}?`}
        confirmLabel="Make a link"
        pending={pending}
        onConfirm={() => run(() => resetPasswordAction({ id: user.id }), "No link could be made.", (result) => setLink(result.data.setPasswordUrl))}
        onClose={() => setConfirming(null)}
      >
        <span id={`${id}-reset`}>
          You get a one-time link (24 hours) to pass on. Their current password keeps working until they set a new one with it; then
          all their sessions end. An earlier unused link stops working.
        </span>
      </ConfirmDialog>
      <LinkDialog url={link} name={user.name} onClose={() => setLink(null)} />
      {user.role === "staff" ? <BranchScopeDialog user={user} branches={branches} open={confirming === "branches"} onClose={() => setConfirming(null)} /> : null}
    </>
  );
}

function RowButton({ label, ...props }: { label: string; className: string; disabled: boolean; title?: string; onClick: (e: React.MouseEvent<HTMLButtonElement>) => void; children: React.ReactNode }) {
  return <button type="button" aria-label={label} {...props} />;
}
