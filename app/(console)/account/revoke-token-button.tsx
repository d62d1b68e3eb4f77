"use client";

import { useTranslations } from "next-intl";
import { ConfirmActionButton } from "@/components/ui/confirm-action-button";
import { revokeTokenAction } from "./actions";

export function RevokeTokenButton({ id, name }: { id: number; name: string }) {
  const t = useTranslations("account");
  return (
    <ConfirmActionButton
      label={t("tokens.revoke.label")}
      ariaLabel={t("tokens.revoke.ariaLabel", { name })}
      className="rounded-md px-2.5 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50"
      title={t("tokens.revoke.title", { name })}
      confirmLabel={t("tokens.revoke.confirm")}
      run={() => revokeTokenAction({ id })}
      done={t("tokens.revoke.done")}
      failed={t("tokens.revoke.failed")}
    >
      {t("tokens.revoke.body")}
    </ConfirmActionButton>
  );
}
