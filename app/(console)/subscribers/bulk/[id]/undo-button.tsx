"use client";

import { useTranslations } from "next-intl";
import { buttonClass } from "@/components/ui/button-styles";
import { ConfirmActionButton } from "@/components/ui/confirm-action-button";
import { undoBulkAction } from "../../bulk-actions";

/** `Undo`, with a confirmation saying what it puts back and what it leaves. */
export function UndoButton({ id, what }: { id: string; what: string }) {
  const t = useTranslations("bulk.undo");
  return (
    <ConfirmActionButton
      label={t("label")}
      className={buttonClass.secondary}
      title={t("title")}
      confirmLabel={t("confirm")}
      run={() => undoBulkAction({ id })}
      done={t("done")}
      failed={t("failed")}
      refreshOnFailure
      then={(result, router) => router.push(`/subscribers/bulk/${result.data.id}`)}
    >
      {t("body", { what })}
    </ConfirmActionButton>
  );
}
