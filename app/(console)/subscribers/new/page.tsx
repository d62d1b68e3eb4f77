import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/client-messages";
import { requirePageUser } from "@/lib/auth/page-guards";
import { isScoped } from "@/lib/auth/scope";
import { localCountries } from "@/lib/countries/names";
import { requestLocale } from "@/lib/i18n/request";
import { branchOptions, sheetNames } from "@/lib/subscribers/options";
import { SubscriberForm } from "../subscriber-form";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("subscribers.form"))("newTitle") };
}

/** Every signed-in user may create subscribers (docs/SPEC.md: no administrator check). */
export default async function NewSubscriberPage() {
  const scope = (await requirePageUser("/subscribers/new")).scope;
  const [branches, countries, sheets, t] = await Promise.all([branchOptions(scope), requestLocale().then(localCountries), sheetNames(), getTranslations("subscribers.form")]);
  return (
    <div className="mx-auto max-w-2xl">
      <h1 className="text-2xl font-semibold tracking-tight">{t("newTitle")}</h1>
      <p className="mt-1 text-sm text-slate-600">{t("newIntro")}</p>
      <div className="mt-6 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <ClientMessages namespaces={["subscribers.form", "subscribers.status", "fields", "problems.subscribers"]}>
          <SubscriberForm branches={branches} countries={countries} sheets={sheets} branchRequired={isScoped(scope)} />
        </ClientMessages>
      </div>
    </div>
  );
}
