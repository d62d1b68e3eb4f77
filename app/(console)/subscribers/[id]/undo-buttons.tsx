"use client";

import { buttonClass } from "@/components/ui/button-styles";
import { ConfirmActionButton } from "@/components/ui/confirm-action-button";
import { undoDismissalAction, undoMergeAction } from "../duplicates/actions";

const UNDO_CLASS = `${buttonClass.secondary} py-1`;

export function UndoMergeButton({ mergeId, survivor, merged }: { mergeId: string; survivor: number; merged: number[] }) {
  const names = merged.map((id) => `#${id}`).join(", ");
  return (
    <ConfirmActionButton
      label="Undo merge"
      className={UNDO_CLASS}
      title="Undo this merge?"
      confirmLabel="Undo merge"
      run={() => undoMergeAction({ merge_id: mergeId })}
      done="Undone."
      failed="It could not be undone."
    >
      {names} come back from the trash and #{survivor} gets its values from before the merge.
    </ConfirmActionButton>
  );
}

export function UndoDismissalButton({ id, other }: { id: number; other: number }) {
  return (
    <ConfirmActionButton
      label="Take back"
      className={UNDO_CLASS}
      title="Take back “not duplicates”?"
      confirmLabel="Take back"
      run={() => undoDismissalAction({ ids: [id, other] })}
      done="Undone."
      failed="It could not be undone."
    >
      #{id} and #{other} count as possible duplicates again: their duplicate flags are decided again.
    </ConfirmActionButton>
  );
}
