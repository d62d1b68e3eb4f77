"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { notify } from "@/components/toast";
import { buttonClass } from "@/components/ui/button-styles";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { undoBulkAction } from "../../bulk-actions";

/** `Undo`, with a confirmation saying what it puts back and what it leaves. */
export function UndoButton({ id, what }: { id: string; what: string }) {
  const [open, setOpen] = useState(false);
  const [pending, start] = useTransition();
  const router = useRouter();
  const confirm = () =>
    start(async () => {
      try {
        const result = await undoBulkAction({ id });
        if (!result.ok) {
          notify("error", result.formError ?? "The change could not be undone.");
          setOpen(false);
          router.refresh();
          return;
        }
        notify("success", result.message ?? "Undone.");
        setOpen(false);
        router.push(`/subscribers/bulk/${result.data.id}`);
      } catch {
        notify("error", "The change could not be undone. Check your connection and try again.");
      }
    });
  return (
    <>
      <button type="button" className={buttonClass.secondary} onClick={() => setOpen(true)}>
        Undo
      </button>
      <ConfirmDialog open={open} title="Undo this change?" confirmLabel="Undo the change" pending={pending} onConfirm={confirm} onClose={() => setOpen(false)}>
        {what} Subscribers someone changed after it are left as they are.
      </ConfirmDialog>
    </>
  );
}
