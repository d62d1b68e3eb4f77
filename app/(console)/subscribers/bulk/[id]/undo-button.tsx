"use client";

import { buttonClass } from "@/components/ui/button-styles";
import { ConfirmActionButton } from "@/components/ui/confirm-action-button";
import { undoBulkAction } from "../../bulk-actions";

/** `Undo`, with a confirmation saying what it puts back and what it leaves. */
export function UndoButton({ id, what }: { id: string; what: string }) {
  return (
    <ConfirmActionButton
      label="Undo"
      className={buttonClass.secondary}
      title="Undo this change?"
      confirmLabel="Undo the change"
      run={() => undoBulkAction({ id })}
      done="Undone."
      failed="The change could not be undone."
      refreshOnFailure
      then={(result, router) => router.push(`/subscribers/bulk/${result.data.id}`)}
    >
      {what} Subscribers someone changed after it are left as they are.
    </ConfirmActionButton>
  );
}
