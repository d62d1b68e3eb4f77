"use client";

import { useTranslations } from "next-intl";
import { PageMessage } from "@/components/page-message";
import { buttonClass } from "@/components/ui/button-styles";
import { useDatabaseOutage } from "@/lib/health/use-outage";

export default function ErrorPage({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  // Production hides server errors' messages: ask /api/health whether the database is the cause.
  const outage = useDatabaseOutage(retry);
  const t = useTranslations("errors");
  if (outage === "database-down") {
    return (
      <PageMessage code="503" title={t("databaseDown")}>
        <p role="status">{t("databaseDownText")}</p>
      </PageMessage>
    );
  }
  return (
    <PageMessage code={t("code")} title={t("title")}>
      <p>{t("text")}</p>
      <p className="mt-2 font-mono text-sm text-slate-500">
        {error.digest ?? t("noReference")}
      </p>
      <button type="button" onClick={retry} className={`${buttonClass.primary} mt-8`}>
        {t("tryAgain")}
      </button>
    </PageMessage>
  );
}
