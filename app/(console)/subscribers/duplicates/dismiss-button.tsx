"use client";

import { useTranslations } from "next-intl";
import { buttonClass } from "@/components/ui/button-styles";
import { ConfirmActionButton } from "@/components/ui/confirm-action-button";
import { dismissDuplicatesAction } from "./actions";

/** "Not duplicates" for a group (anyone signed in), confirmed naming its members: only an administrator can take it back. */
export function DismissButton({ members, label }: { members: { id: number; name: string }[]; label: string }) {
  const t = useTranslations("duplicates.dismiss");
  return (
    <ConfirmActionButton
      label={t("label")}
      ariaLabel={t("ariaLabel", { group: label })}
      className={`${buttonClass.secondary} py-1.5`}
      title={t("title")}
      confirmLabel={t("confirm")}
      run={() => dismissDuplicatesAction({ ids: members.map((m) => m.id) })}
      done={t("done")}
      failed={t("failed")}
    >
      {t.rich("body", {
        members: () =>
          members.map((m, i) => (
            <span key={m.id}>
              {i ? t("separator") : ""}
              <bdi dir="ltr">#{m.id}</bdi> <bdi>{m.name}</bdi>
            </span>
          )),
      })}
    </ConfirmActionButton>
  );
}
