"use client";

import { ConfirmActionButton } from "@/components/ui/confirm-action-button";
import { revokeTokenAction } from "./actions";

export function RevokeTokenButton({ id, name }: { id: number; name: string }) {
  return (
    <ConfirmActionButton
      label="Revoke"
      ariaLabel={`Revoke ${name}`}
      className="rounded-md px-2.5 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50"
      title={`Revoke “${name}”?`}
      confirmLabel="Revoke token"
      run={() => revokeTokenAction({ id })}
      done="Token revoked."
      failed="The token could not be revoked."
    >
      Scripts that use it get 401 from their next request. This cannot be undone.
    </ConfirmActionButton>
  );
}
