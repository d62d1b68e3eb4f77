"use client";

import { useTranslations } from "next-intl";
import { buttonClass } from "@/components/ui/button-styles";
import { ConfirmActionButton } from "@/components/ui/confirm-action-button";
import { undoDismissalAction, undoMergeAction } from "../duplicates/actions";

const UNDO_CLASS = `${buttonClass.secondary} py-1`;

export function UndoMergeButton({ mergeId, survivor, merged }: { mergeId: string; survivor: number; merged: number[] }) {
  const t = useTranslations("record.undo");
  const names = merged.map((id) => `#${id}`).join(t("listSeparator"));
  return (
    <ConfirmActionButton
      label={t("mergeLabel")}
      className={UNDO_CLASS}
      title={t("mergeTitle")}
      confirmLabel={t("mergeLabel")}
      run={() => undoMergeAction({ merge_id: mergeId })}
      done={t("done")}
      failed={t("failed")}
    >
      {t("mergeBody", { names, count: merged.length, survivor: String(survivor) })}
    </ConfirmActionButton>
  );
}

export function UndoDismissalButton({ id, other }: { id: number; other: number }) {
  const t = useTranslations("record.undo");
  return (
    <ConfirmActionButton
      label={t("dismissalLabel")}
      className={UNDO_CLASS}
      title={t("dismissalTitle")}
      confirmLabel={t("dismissalLabel")}
      run={() => undoDismissalAction({ ids: [id, other] })}
      done={t("done")}
      failed={t("failed")}
    >
      {t("dismissalBody", { id: String(id), other: String(other) })}
    </ConfirmActionButton>
  );
}
