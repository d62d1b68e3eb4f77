"use client";

import { buttonClass } from "@/components/ui/button-styles";
import { ConfirmActionButton } from "@/components/ui/confirm-action-button";
import { deleteSubscriberAction } from "../actions";

/** Administrators only (the action checks it): a confirmation that names the subscriber. */
export function DeleteSubscriberButton({ id, name }: { id: number; name: string }) {
  return (
    <ConfirmActionButton
      label="Delete"
      className={buttonClass.secondary}
      title={`Delete ${name}?`}
      confirmLabel="Delete subscriber"
      run={() => deleteSubscriberAction({ id })}
      done="Subscriber deleted."
      failed="The subscriber could not be deleted."
      then={(_result, router) => {
        router.push("/subscribers");
        router.refresh();
      }}
    >
      Subscriber #{id}, <bdi>{name}</bdi>, moves to the trash: it leaves every list and export, and an administrator can restore it from the trash until the
      clean-up erases it. Later subscribers that were duplicates only of this one are no longer marked as duplicates (a restore marks them again).
    </ConfirmActionButton>
  );
}
