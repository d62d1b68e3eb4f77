"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import { ConfirmActionButton } from "@/components/ui/confirm-action-button";
import { countBranchSubscribersAction, deleteBranchAction } from "./actions";
import { callAction } from "@/components/ui/call-action";

/** The confirmation says what deleting does, and what brings it back (docs/decisions/0031-trash.md); the subscribers are counted when it opens. */
export function DeleteBranchButton({ id, name }: { id: number; name: string }) {
  const t = useTranslations("branches");
  const [subscribers, setSubscribers] = useState<number | "counting" | "unknown">("counting");
  const count = () => {
    setSubscribers("counting");
    void callAction(() => countBranchSubscribersAction({ id })).then((result) => setSubscribers(result?.ok ? result.data.subscribers : "unknown"));
  };
  const undo = t("delete.undo");
  return (
    <ConfirmActionButton
      label={t("delete.label")}
      ariaLabel={t("delete.ariaLabel", { name })}
      className="ms-1 rounded-md px-2.5 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50"
      title={t("delete.title", { name })}
      confirmLabel={t("delete.confirm")}
      onOpen={count}
      run={() => deleteBranchAction({ id })}
      done={t("delete.done")}
      failed={t("delete.failed")}
    >
      <span aria-live="polite">
        {subscribers === "counting"
          ? t("delete.counting")
          : subscribers === "unknown"
            ? `${t("delete.unknown")} ${undo}`
            : subscribers === 0
              ? `${t("delete.none")} ${undo}`
              : `${t("delete.some", { count: subscribers })} ${undo}`}
      </span>
    </ConfirmActionButton>
  );
}
