import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/client-messages";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requirePageUser } from "@/lib/auth/page-guards";
import { isScoped } from "@/lib/auth/scope";
import { config } from "@/lib/config";
import { localCountries } from "@/lib/countries/names";
import { requestLocale } from "@/lib/i18n/request";
import { editableFields } from "@/lib/subscribers/edit";
import { branchOptions, sheetNames } from "@/lib/subscribers/options";
import { findSubscriber } from "@/lib/subscribers/record";
import { parseId } from "@/lib/validation/id";
import type { RawParams } from "@/lib/list/params";
import { backQuery, listBack } from "@/lib/subscribers/back";
import { SubscriberForm } from "../../subscriber-form";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("subscribers.form"))("editTitle") };
}

/** Anyone signed in may correct a subscriber (the creation form's rules); the server decides the duplicate flag again. */
export default async function EditSubscriberPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<RawParams> }) {
  const common = await getTranslations("common");
  const raw = (await params).id;
  const back = listBack((await searchParams).back);
  const scope = (await requirePageUser(`/subscribers/${encodeURIComponent(raw)}/edit${backQuery(back)}`)).scope;
  const id = parseId(raw);
  const s = id === null ? null : await findSubscriber(scope, id);
  if (!s) notFound();
  // Saving, cancelling and the breadcrumb return to the record with the list's address kept.
  const record = `/subscribers/${s.id}${backQuery(back)}`;
  const [branches, countries, sheets, t, tr] = await Promise.all([
    branchOptions(scope),
    requestLocale().then(localCountries),
    sheetNames(),
    getTranslations("subscribers.form"),
    getTranslations("record"),
  ]);
  return (
    <div className="mx-auto max-w-2xl">
      <nav aria-label={common("breadcrumb")} className="flex flex-wrap gap-x-2 text-sm">
        <Link href={back} className="text-brand-700 hover:underline">
          {tr("back")}
        </Link>
        <span aria-hidden="true" className="text-slate-400">/</span>
        <Link href={record} className="text-brand-700 hover:underline">
          <bdi>{`${s.first_name} ${s.last_name}`}</bdi>
        </Link>
      </nav>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight">{t("editTitle")}</h1>
      <p className="mt-1 text-sm text-slate-600">{t("editIntro")}</p>
      <div className="mt-6 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        {/* The form shows the edit-conflict view (../../conflict-view.tsx) when someone saved first. */}
        <ClientMessages namespaces={["subscribers.form", "subscribers.status", "fields", "problems.subscribers", "conflict"]}>
          <SubscriberForm
            branches={branches}
            countries={countries}
            sheets={sheets}
            editing={{ id: s.id, record, version: s.updated_at.toISOString(), values: editableFields(s), timeZone: config().CONSOLE_TIME_ZONE }}
            branchRequired={isScoped(scope)}
          />
        </ClientMessages>
      </div>
    </div>
  );
}
