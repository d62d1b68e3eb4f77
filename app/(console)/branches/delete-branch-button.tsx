"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { notify } from "@/components/toast";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { countBranchSubscribersAction, deleteBranchAction } from "./actions";

/** What brings it back (docs/decisions/0031-trash.md). */
const UNDO = "An administrator can restore it from the trash, with its subscribers' link, until the clean-up erases it.";

/** The confirmation says what deleting does; the subscribers are counted when it opens. */
export function DeleteBranchButton({ id, name }: { id: number; name: string }) {
  const [open, setOpen] = useState(false);
  const [subscribers, setSubscribers] = useState<number | "counting" | "unknown">("counting");
  const [pending, startTransition] = useTransition();
  const router = useRouter();

  const openDialog = () => {
    setOpen(true);
    setSubscribers("counting");
    countBranchSubscribersAction({ id }).then(
      (result) => setSubscribers(result.ok ? result.data.subscribers : "unknown"),
      () => setSubscribers("unknown"),
    );
  };

  const confirm = () =>
    startTransition(async () => {
      try {
        const result = await deleteBranchAction({ id });
        if (result.ok) {
          notify("success", result.message ?? "Branch deleted.");
          setOpen(false);
          router.refresh();
        } else {
          notify("error", result.formError ?? "The branch could not be deleted.");
        }
      } catch {
        notify("error", "The branch could not be deleted. Check your connection and try again.");
      }
    });

  return (
    <>
      <button
        type="button"
        onClick={openDialog}
        className="ml-1 rounded-md px-2.5 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50"
        aria-label={`Delete ${name}`}
      >
        Delete
      </button>
      <ConfirmDialog
        open={open}
        title={`Delete “${name}”?`}
        confirmLabel="Delete branch"
        pending={pending}
        onConfirm={confirm}
        onClose={() => setOpen(false)}
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
      </ConfirmDialog>
    </>
  );
}
