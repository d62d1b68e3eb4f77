"use client";

import { useTranslations } from "next-intl";
import { buttonClass } from "@/components/ui/button-styles";
import { ConfirmActionButton } from "@/components/ui/confirm-action-button";
import { deleteSubscriberAction } from "../actions";

/** Administrators only (the action checks it): a confirmation that names the subscriber. */
export function DeleteSubscriberButton({ id, name }: { id: number; name: string }) {
  const t = useTranslations("record.delete");
  return (
    <ConfirmActionButton
      label={t("label")}
      className={buttonClass.secondary}
      title={t("title", { name })}
      confirmLabel={t("confirm")}
      run={() => deleteSubscriberAction({ id })}
      done={t("done")}
      failed={t("failed")}
      then={(_result, router) => {
        router.push("/subscribers");
        router.refresh();
      }}
    >
      {t.rich("body", { id: String(id), name, bdi: (c) => <bdi>{c}</bdi> })}
    </ConfirmActionButton>
  );
}
