"use client";

import { buttonClass } from "@/components/ui/button-styles";
import { ConfirmActionButton } from "@/components/ui/confirm-action-button";
import type { ActionResult } from "@/lib/actions";
import type { Activity } from "@/lib/activity/schema";
import { UndoButton } from "../subscribers/bulk/[id]/undo-button";
import { undoMergeAction } from "../subscribers/duplicates/actions";
import { restoreTrashAction } from "../trash/actions";

const UNDO_CLASS = `${buttonClass.secondary} py-1`;

/** An entry's Undo, by the rules and actions its own page uses: a bulk change's undo, a merge's undo, a restore from the trash. */
export function ActivityUndo({ entry }: { entry: Activity }) {
  if (entry.kind === "bulk_change") return <UndoButton id={entry.id} what={`It puts back what “${entry.summary}” changed, as it was before.`} />;
  const merge = entry.kind === "merge";
  const kind = entry.kind === "branch_deletion" ? "branches" : "subscribers";
  return (
    <ConfirmActionButton
      label={merge ? "Undo" : "Restore"}
      ariaLabel={`${merge ? "Undo" : "Restore"}: ${entry.summary}`}
      className={UNDO_CLASS}
      title={merge ? "Undo this merge?" : "Restore from the trash?"}
      confirmLabel={merge ? "Undo merge" : "Restore"}
      run={(): Promise<ActionResult<unknown>> => (merge ? undoMergeAction({ merge_id: entry.id }) : restoreTrashAction({ kind, ids: [Number(entry.id)] }))}
      done="Undone."
      failed="It could not be undone."
      refreshOnFailure
    >
      {merge ? "The merged subscribers come back from the trash and the one kept gets its values from before the merge." : `${entry.summary.replace(/ \(to the trash\)$/, "")}: it comes back.`}
    </ConfirmActionButton>
  );
}
