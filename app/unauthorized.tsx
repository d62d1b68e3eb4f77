import { useTranslations } from "next-intl";
import { PageState } from "@/components/page-state";

export default function Unauthorized() {
  const t = useTranslations("errors");
  return (
    <PageState code="401" title={t("unauthorizedTitle")} action={{ href: "/login", label: t("signIn") }}>
      {t("unauthorizedText")}
    </PageState>
  );
}
