"use client";

import { buttonClass } from "@/components/ui/button-styles";
import { ConfirmActionButton } from "@/components/ui/confirm-action-button";
import type { ActionResult } from "@/lib/actions";
import type { ShownActivity } from "@/lib/activity/queries";
import { UndoButton } from "../subscribers/bulk/[id]/undo-button";
import { undoMergeAction } from "../subscribers/duplicates/actions";
import { restoreTrashAction } from "../trash/actions";

const UNDO_CLASS = `${buttonClass.secondary} py-1`;

/** What the Undo says, in the reader's language: put into words by the page (activity.undo.*), so no catalogue travels per row. */
export type UndoWords = { label: string; ariaLabel: string; title: string; confirmLabel: string; done: string; failed: string };

/** An entry's Undo, by the rules and actions its own page uses: a bulk change's undo, a merge's undo, a restore from the trash. */
export function ActivityUndo({ entry, words }: { entry: Pick<ShownActivity, "kind" | "id" | "confirm">; words: UndoWords }) {
  if (entry.kind === "bulk_change") return <UndoButton id={entry.id} what={entry.confirm ?? ""} />;
  const merge = entry.kind === "merge";
  const kind = entry.kind === "branch_deletion" ? "branches" : "subscribers";
  return (
    <ConfirmActionButton
      label={words.label}
      ariaLabel={words.ariaLabel}
      className={UNDO_CLASS}
      title={words.title}
      confirmLabel={words.confirmLabel}
      run={(): Promise<ActionResult<unknown>> => (merge ? undoMergeAction({ merge_id: entry.id }) : restoreTrashAction({ kind, ids: [Number(entry.id)] }))}
      done={words.done}
      failed={words.failed}
      refreshOnFailure
    >
      {entry.confirm}
    </ConfirmActionButton>
  );
}
