"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { notify } from "@/components/toast";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { revokeTokenAction } from "./actions";

export function RevokeTokenButton({ id, name }: { id: number; name: string }) {
  const [open, setOpen] = useState(false);
  const [pending, start] = useTransition();
  const router = useRouter();
  const confirm = () =>
    start(async () => {
      try {
        const result = await revokeTokenAction({ id });
        if (result.ok) {
          notify("success", result.message ?? "Token revoked.");
          setOpen(false);
          router.refresh();
        } else notify("error", result.formError ?? "The token could not be revoked.");
      } catch {
        notify("error", "The token could not be revoked. Check your connection and try again.");
      }
    });
  return (
    <>
      <button type="button" onClick={() => setOpen(true)} className="rounded-md px-2.5 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50" aria-label={`Revoke ${name}`}>
        Revoke
      </button>
      <ConfirmDialog open={open} title={`Revoke “${name}”?`} confirmLabel="Revoke token" pending={pending} onConfirm={confirm} onClose={() => setOpen(false)}>
        Scripts that use it get 401 from their next request. This cannot be undone.
      </ConfirmDialog>
    </>
  );
}
