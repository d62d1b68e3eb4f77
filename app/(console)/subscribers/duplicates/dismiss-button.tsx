"use client";

import { buttonClass } from "@/components/ui/button-styles";
import { ConfirmActionButton } from "@/components/ui/confirm-action-button";
import { dismissDuplicatesAction } from "./actions";

/** "Not duplicates" for a group (anyone signed in), confirmed naming its members: only an administrator can take it back. */
export function DismissButton({ members, label }: { members: { id: number; name: string }[]; label: string }) {
  return (
    <ConfirmActionButton
      label="Not duplicates"
      ariaLabel={`Not duplicates: ${label}`}
      className={`${buttonClass.secondary} py-1.5`}
      title="Not duplicates?"
      confirmLabel="Mark as not duplicates"
      run={() => dismissDuplicatesAction({ ids: members.map((m) => m.id) })}
      done="Marked as not duplicates."
      failed="They could not be marked as not duplicates."
    >
      {members.map((m, i) => (
        <span key={m.id}>
          {i ? ", " : ""}#{m.id} <bdi>{m.name}</bdi>
        </span>
      ))}{" "}
      are marked as different people: none of them is a duplicate of another any more, now or after later edits. An administrator can take this back.
    </ConfirmActionButton>
  );
}
