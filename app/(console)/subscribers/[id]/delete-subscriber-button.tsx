"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { notify } from "@/components/toast";
import { buttonClass } from "@/components/ui/button-styles";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { deleteSubscriberAction } from "../actions";

/** Administrators only (the action checks it): a confirmation that names the subscriber. */
export function DeleteSubscriberButton({ id, name }: { id: number; name: string }) {
  const [open, setOpen] = useState(false);
  const [pending, start] = useTransition();
  const router = useRouter();
  const confirm = () =>
    start(async () => {
      try {
        const result = await deleteSubscriberAction({ id });
        if (result.ok) {
          notify("success", result.message ?? "Subscriber deleted.");
          setOpen(false);
          router.push("/subscribers");
          router.refresh();
        } else notify("error", result.formError ?? "The subscriber could not be deleted.");
      } catch {
        notify("error", "The subscriber could not be deleted. Check your connection and try again.");
      }
    });
  return (
    <>
      <button type="button" className={buttonClass.secondary} onClick={() => setOpen(true)}>
        Delete
      </button>
      <ConfirmDialog open={open} title={`Delete ${name}?`} confirmLabel="Delete subscriber" pending={pending} onConfirm={confirm} onClose={() => setOpen(false)}>
        Subscriber #{id}, <bdi>{name}</bdi>, moves to the trash: it leaves every list and export, and an administrator can restore it from the trash until the
        clean-up erases it. Later subscribers that were duplicates only of this one are no longer marked as duplicates (a restore marks them again).
      </ConfirmDialog>
    </>
  );
}
