"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { notify } from "@/components/toast";
import { buttonClass } from "@/components/ui/button-styles";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { dismissDuplicatesAction } from "./actions";

/** "Not duplicates" for a group (anyone signed in), confirmed naming its members: only an administrator can take it back. */
export function DismissButton({ members, label }: { members: { id: number; name: string }[]; label: string }) {
  const [open, setOpen] = useState(false);
  const [pending, start] = useTransition();
  const router = useRouter();
  const confirm = () =>
    start(async () => {
      try {
        const result = await dismissDuplicatesAction({ ids: members.map((m) => m.id) });
        if (result.ok) {
          notify("success", result.message ?? "Marked as not duplicates.");
          setOpen(false);
          router.refresh();
        } else notify("error", result.formError ?? "They could not be marked as not duplicates.");
      } catch {
        notify("error", "They could not be marked as not duplicates. Check your connection and try again.");
      }
    });
  return (
    <>
      <button type="button" className={`${buttonClass.secondary} py-1.5`} onClick={() => setOpen(true)} aria-label={`Not duplicates: ${label}`}>
        Not duplicates
      </button>
      <ConfirmDialog open={open} title="Not duplicates?" confirmLabel="Mark as not duplicates" pending={pending} onConfirm={confirm} onClose={() => setOpen(false)}>
        {members.map((m, i) => (
          <span key={m.id}>
            {i ? ", " : ""}#{m.id} <bdi>{m.name}</bdi>
          </span>
        ))}{" "}
        are marked as different people: none of them is a duplicate of another any more, now or after later edits. An administrator can take this back.
      </ConfirmDialog>
    </>
  );
}
