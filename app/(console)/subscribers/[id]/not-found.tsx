import { getTranslations } from "next-intl/server";
import { PageState } from "@/components/page-state";
import { requirePageUser } from "@/lib/auth/page-guards";
import { isScoped } from "@/lib/auth/scope";

/** A record that is not there and one outside the user's branches answer alike: nothing tells them apart. */
export default async function SubscriberNotFound() {
  const user = await requirePageUser("/subscribers");
  const t = await getTranslations("record.notFound");
  return (
    <PageState code="404" title={t("title")} landmark={false} action={{ href: "/subscribers", label: t("back") }}>
      {isScoped(user.scope) ? t("bodyScoped") : t("body")}
    </PageState>
  );
}
