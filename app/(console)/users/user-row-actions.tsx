"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { notify } from "@/components/toast";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { Role } from "@/lib/auth/permissions";
import { changeRoleAction, resetPasswordAction, resetTwoFactorAction, setActiveAction, unlinkSsoAction } from "./actions";
import type { BranchChoice } from "./branch-picker";
import { BranchScopeDialog } from "./branch-scope-dialog";
import { LinkDialog } from "./link-dialog";

type Row = { id: number; name: string; email: string; role: Role; active: boolean; branch_ids: number[] | null; two_factor: boolean; sso_linked: boolean };
type Pending = null | "role" | "active" | "reset" | "branches" | "two-factor" | "sso";

const small = "rounded-md px-2.5 py-1.5 text-sm font-medium disabled:opacity-50";

/** On your own row, role and deactivation are disabled and the password is /account's. */
export function UserRowActions({ user, self, branches }: { user: Row; self: boolean; branches: BranchChoice[] }) {
  const router = useRouter();
  const id = useId();
  const [pending, start] = useTransition();
  const [confirming, setConfirming] = useState<Pending>(null);
  const [link, setLink] = useState<string | null>(null);

  const ask = (what: NonNullable<Pending>) => () => setConfirming(what);
  type Answer = { ok: true; message?: string; data?: unknown } | { ok: false; formError?: string };
  const run = <R extends Answer>(work: () => Promise<R>, failure: string, done?: (result: Extract<R, { ok: true }>) => void) =>
    start(async () => {
      try {
        const result = await work();
        setConfirming(null);
        if (!result.ok) notify("error", result.formError ?? failure);
        else if (done) done(result as Extract<R, { ok: true }>);
        else {
          if (result.message) notify("success", result.message);
          router.refresh();
        }
      } catch {
        notify("error", `${failure} Check your connection and try again.`);
      }
    });

  const otherRole: Role = user.role === "admin" ? "staff" : "admin";
  const quiet = `${small} text-slate-700 hover:bg-slate-100`;
  return (
    <div className="inline-flex flex-wrap justify-end gap-1">
      {user.role === "staff" ? (
        <RowButton className={`${small} text-brand-700 hover:bg-brand-50`} disabled={pending} onClick={ask("branches")} label={`Branches of ${user.name}`}>
          Branches…
        </RowButton>
      ) : null}
      <RowButton
        className={`${small} text-brand-700 hover:bg-brand-50`}
        disabled={pending || self}
        title={self ? "Another administrator must change your role." : undefined}
        onClick={ask("role")}
        label={`${user.role === "admin" ? "Make staff" : "Make admin"} (${user.name})`}
      >
        {user.role === "admin" ? "Make staff" : "Make admin"}
      </RowButton>
      <RowButton
        className={`${small} ${user.active ? "text-red-700 hover:bg-red-50" : "text-emerald-700 hover:bg-emerald-50"}`}
        disabled={pending || (self && user.active)}
        title={self && user.active ? "Another administrator must deactivate you." : undefined}
        onClick={ask("active")}
        label={user.active ? `Deactivate ${user.name}` : `Reactivate ${user.name}`}
      >
        {user.active ? "Deactivate" : "Reactivate"}
      </RowButton>
      {self ? (
        // Your own password is changed on /account, with the current one (the server refuses a self-reset too).
        <Link href="/account" className={quiet}>
          Change password
        </Link>
      ) : (
        <RowButton className={quiet} disabled={pending} onClick={ask("reset")} label={`Reset password of ${user.name}`}>
          Reset password
        </RowButton>
      )}
      {user.two_factor && !self ? (
        <RowButton className={quiet} disabled={pending} onClick={ask("two-factor")} label={`Reset two-factor of ${user.name}`}>
          Reset two-factor
        </RowButton>
      ) : null}
      {user.sso_linked && !self ? (
        <RowButton className={quiet} disabled={pending} onClick={ask("sso")} label={`Unlink single sign-on of ${user.name}`}>
          Unlink single sign-on
        </RowButton>
      ) : null}

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
    </div>
  );
}

function RowButton({ label, ...props }: { label: string; className: string; disabled: boolean; title?: string; onClick: () => void; children: React.ReactNode }) {
  return <button type="button" aria-label={label} {...props} />;
}
