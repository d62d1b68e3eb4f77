"use client";

import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { useTranslations } from "next-intl";
import { useProblemWords } from "@/lib/i18n/client";
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
  const t = useTranslations("users");
  const words = useProblemWords();
  const router = useRouter();
  const [pending, start] = useTransition();
  const [value, setValue] = useState<number[] | null>(user.branch_ids);
  const [error, setError] = useState<string | null>(null);

  const save = () => {
    if (value !== null && value.length === 0) {
      setError(t("picker.tickOne"));
      return;
    }
    start(async () => {
      const result = await callAction(() => setBranchesAction({ id: user.id, branch_ids: value }));
      if (!result) return setError(t("scope.offline"));
      if (!result.ok) return setError(words(result.fieldErrors?.branch_ids?.[0] ?? result.formError ?? t("scope.failed")));
      if (result.message) notify("success", result.message);
      onClose();
      router.refresh();
    });
  };

  return (
    <>
      <div className="space-y-4 p-6">
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          {t.rich("scope.title", { name: user.name, bdi: (chunks) => <bdi>{chunks}</bdi> })}
        </h2>
        <p className="text-sm whitespace-normal text-slate-600">
          {t("scope.body")}
        </p>
        <BranchPicker branches={branches} value={value} onChange={setValue} error={error ?? undefined} />
      </div>
      <div className="flex justify-end gap-3 border-t border-slate-100 bg-slate-50 px-6 py-4">
        <button type="button" className={buttonClass.secondary} onClick={onClose}>
          {t("form.cancel")}
        </button>
        <button type="button" className={buttonClass.primary} onClick={save} disabled={pending}>
          {pending ? t("scope.saving") : t("scope.save")}
        </button>
      </div>
    </>
  );
}
