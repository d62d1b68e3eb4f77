"use client";

import { useTranslations } from "next-intl";
import { buttonClass } from "@/components/ui/button-styles";
import { ConfirmActionButton } from "@/components/ui/confirm-action-button";
import type { PersonCounts } from "@/lib/people/find";
import { erasePersonAction } from "../actions";

/** Administrators only (the action checks it): the confirmation names what goes, how many records, and that it cannot be undone. */
export function ErasePersonButton({ id, name, email, mobile, counts }: { id: number; name: string; email: string; mobile: string; counts: PersonCounts }) {
  const t = useTranslations("record.erase");
  const where = [
    counts.live ? t("live", { count: counts.live }) : null,
    counts.trash ? t("trash", { count: counts.trash }) : null,
    counts.merged ? t("merged", { count: counts.merged }) : null,
  ].filter(Boolean);
  return (
    <ConfirmActionButton
      label={t("label")}
      className={buttonClass.danger}
      title={t("title", { name })}
      confirmLabel={t("confirm", { count: counts.total })}
      run={() => erasePersonAction({ id })}
      done={t("done")}
      failed={t("failed")}
      then={(_result, router) => {
        router.push("/subscribers");
        router.refresh();
      }}
    >
      <span className="block">
        {t.rich("body", {
          email,
          mobile,
          where: where.join(t("listSeparator")),
          count: counts.total,
          bdi: (c) => <bdi dir="ltr">{c}</bdi>,
          mono: (c) => (
            <bdi dir="ltr" className="font-mono">
              {c}
            </bdi>
          ),
        })}
      </span>
      <span className="mt-2 block">{t("reach")}</span>
      <span className="mt-2 block font-semibold">{t("final")}</span>
    </ConfirmActionButton>
  );
}
