"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { notify } from "@/components/toast";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { deleteBranchAction } from "./actions";

export function DeleteBranchButton({ id, name, subscribers }: { id: number; name: string; subscribers: number }) {
  const [open, setOpen] = useState(false);
  const [pending, startTransition] = useTransition();
  const router = useRouter();

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
        onClick={() => setOpen(true)}
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
        {subscribers === 0
          ? "No subscriber belongs to this branch. This cannot be undone."
          : `${subscribers.toLocaleString("en-GB")} subscriber${subscribers === 1 ? "" : "s"} will lose their branch (they are kept, with no branch). This cannot be undone.`}
      </ConfirmDialog>
    </>
  );
}
