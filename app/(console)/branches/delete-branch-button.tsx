"use client";

import { useState } from "react";
import { ConfirmActionButton } from "@/components/ui/confirm-action-button";
import { countBranchSubscribersAction, deleteBranchAction } from "./actions";
import { callAction } from "@/components/ui/call-action";

/** What brings it back (docs/decisions/0031-trash.md). */
const UNDO = "An administrator can restore it from the trash, with its subscribers' link, until the clean-up erases it.";

/** The confirmation says what deleting does; the subscribers are counted when it opens. */
export function DeleteBranchButton({ id, name }: { id: number; name: string }) {
  const [subscribers, setSubscribers] = useState<number | "counting" | "unknown">("counting");
  const count = () => {
    setSubscribers("counting");
    void callAction(() => countBranchSubscribersAction({ id })).then((result) => setSubscribers(result?.ok ? result.data.subscribers : "unknown"));
  };
  return (
    <ConfirmActionButton
      label="Delete"
      ariaLabel={`Delete ${name}`}
      className="ms-1 rounded-md px-2.5 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50"
      title={`Delete “${name}”?`}
      confirmLabel="Delete branch"
      onOpen={count}
      run={() => deleteBranchAction({ id })}
      done="Branch deleted."
      failed="The branch could not be deleted."
    >
      <span aria-live="polite">
        {subscribers === "counting"
          ? "Counting the subscribers of this branch…"
          : subscribers === "unknown"
            ? `Its subscribers will lose their branch while it is in the trash. ${UNDO}`
            : subscribers === 0
              ? `No subscriber belongs to this branch. ${UNDO}`
              : `${subscribers.toLocaleString("en-GB")} subscriber${subscribers === 1 ? "" : "s"} will lose their branch while it is in the trash. ${UNDO}`}
      </span>
    </ConfirmActionButton>
  );
}
