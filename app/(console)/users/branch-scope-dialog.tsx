"use client";

import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { notify } from "@/components/toast";
import { buttonClass } from "@/components/ui/button-styles";
import { Modal } from "@/components/ui/modal";
import { setBranchesAction } from "./actions";
import { BranchPicker, type BranchChoice } from "./branch-picker";
import { callAction } from "@/components/ui/call-action";

type ScopedUser = { id: number; name: string; branch_ids: number[] | null };

/**
 * Which branches a staff member sees: every branch, or those ticked (the list searched by name).
 * Its content exists while open only, from the user's branches as saved: a closed one per row of
 * /users renders no list of branches.
 */
export function BranchScopeDialog({ user, branches, open, onClose }: { user: ScopedUser; branches: BranchChoice[]; open: boolean; onClose: () => void }) {
  const id = useId();
  return (
    <Modal open={open} onClose={onClose} labelledBy={`${id}-title`}>
      <ScopeForm titleId={`${id}-title`} user={user} branches={branches} onClose={onClose} />
    </Modal>
  );
}

function ScopeForm({ titleId, user, branches, onClose }: { titleId: string; user: ScopedUser; branches: BranchChoice[]; onClose: () => void }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [value, setValue] = useState<number[] | null>(user.branch_ids);
  const [error, setError] = useState<string | null>(null);

  const save = () => {
    if (value !== null && value.length === 0) {
      setError("Tick at least one branch, or choose every branch.");
      return;
    }
    start(async () => {
      const result = await callAction(() => setBranchesAction({ id: user.id, branch_ids: value }));
      if (!result) return setError("The branches could not be saved. Check your connection and try again.");
      if (!result.ok) return setError(result.fieldErrors?.branch_ids?.[0] ?? result.formError ?? "The branches could not be saved.");
      if (result.message) notify("success", result.message);
      onClose();
      router.refresh();
    });
  };

  return (
    <>
      <div className="space-y-4 p-6">
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          Branches of <bdi>{user.name}</bdi>
        </h2>
        <p className="text-sm whitespace-normal text-slate-600">
          They see, export, import and change the subscribers of these branches only, from their next request on.
        </p>
        <BranchPicker branches={branches} value={value} onChange={setValue} error={error ?? undefined} />
      </div>
      <div className="flex justify-end gap-3 border-t border-slate-100 bg-slate-50 px-6 py-4">
        <button type="button" className={buttonClass.secondary} onClick={onClose}>
          Cancel
        </button>
        <button type="button" className={buttonClass.primary} onClick={save} disabled={pending}>
          {pending ? "Saving…" : "Save branches"}
        </button>
      </div>
    </>
  );
}
