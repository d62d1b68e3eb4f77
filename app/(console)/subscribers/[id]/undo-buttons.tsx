"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { notify } from "@/components/toast";
import { buttonClass } from "@/components/ui/button-styles";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { undoDismissalAction, undoMergeAction } from "../duplicates/actions";

type Result = { ok: true; message?: string } | { ok: false; formError?: string };

/** A button that asks first, naming what comes back, then runs an administrator's undo. */
function UndoButton({ label, title, confirmLabel, children, run }: { label: string; title: string; confirmLabel: string; children: React.ReactNode; run: () => Promise<Result> }) {
  const [open, setOpen] = useState(false);
  const [pending, start] = useTransition();
  const router = useRouter();
  const confirm = () =>
    start(async () => {
      try {
        const result = await run();
        if (result.ok) {
          notify("success", result.message ?? "Undone.");
          setOpen(false);
          router.refresh();
        } else notify("error", result.formError ?? "It could not be undone.");
      } catch {
        notify("error", "It could not be undone. Check your connection and try again.");
      }
    });
  return (
    <>
      <button type="button" className={`${buttonClass.secondary} py-1`} onClick={() => setOpen(true)}>
        {label}
      </button>
      <ConfirmDialog open={open} title={title} confirmLabel={confirmLabel} pending={pending} onConfirm={confirm} onClose={() => setOpen(false)}>
        {children}
      </ConfirmDialog>
    </>
  );
}

export function UndoMergeButton({ mergeId, survivor, merged }: { mergeId: string; survivor: number; merged: number[] }) {
  const names = merged.map((id) => `#${id}`).join(", ");
  return (
    <UndoButton label="Undo merge" title="Undo this merge?" confirmLabel="Undo merge" run={() => undoMergeAction({ merge_id: mergeId })}>
      {names} come back from the trash and #{survivor} gets its values from before the merge.
    </UndoButton>
  );
}

export function UndoDismissalButton({ id, other }: { id: number; other: number }) {
  return (
    <UndoButton label="Take back" title="Take back “not duplicates”?" confirmLabel="Take back" run={() => undoDismissalAction({ ids: [id, other] })}>
      #{id} and #{other} count as possible duplicates again: their duplicate flags are decided again.
    </UndoButton>
  );
}
