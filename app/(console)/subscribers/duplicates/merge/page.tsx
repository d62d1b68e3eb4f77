import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/client-messages";
import { LIST_CLIENT_WORDS } from "@/lib/i18n/client-words";
import { countryNamer } from "@/lib/countries/names";
import { getFormats } from "@/lib/i18n/server";
import { requirePageAdmin } from "@/lib/auth/page-guards";
import { withParams, type RawParams } from "@/lib/list/params";
import { parseWith } from "@/lib/list/parse";
import { MERGE_FIELDS, mergePageSchema, type MergeField } from "@/lib/subscribers/duplicate-schema";
import { fieldText, labelOf, type FieldWords, type ValueWords } from "@/lib/subscribers/merge-fields";
import { findSubscriber } from "@/lib/subscribers/record";
import { MergeForm, type MergeMember } from "./merge-form";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("duplicates.mergePage");
  return { title: t("metaTitle") };
}

const PATH = "/subscribers/duplicates/merge";

/** Merge… (administrators): choose the subscriber that stays and, field by field, whose value it keeps. */
export default async function MergePage({ searchParams }: { searchParams: Promise<RawParams> }) {
  const common = await getTranslations("common");
  const params = await searchParams;
  const user = await requirePageAdmin(`${PATH}${withParams(params, {})}`);
  const parsed = parseWith(mergePageSchema, params);
  if (!parsed.ok) notFound();
  const scope = user.scope;
  const t = await getTranslations("duplicates");
  const f = await getFormats();
  // The `fields` namespace is the field catalogue's (lib/subscribers/fields.ts): read here, never written.
  const fieldWords = (await getTranslations("fields")) as unknown as FieldWords;
  const values: ValueWords = {
    day: f.day,
    status: (status) => t("value.status", { status }),
    flag: (value) => (value ? t("value.yes") : t("value.no")),
    country: await countryNamer(f.locale),
  };
  const labels = Object.fromEntries(MERGE_FIELDS.map((field) => [field, labelOf(fieldWords, field)])) as Record<MergeField, string>;
  const found = await Promise.all(parsed.value.ids.map((id) => findSubscriber(scope, id)));
  const rows = found.filter((s) => s !== null);
  if (rows.length < 2) notFound();
  const members: MergeMember[] = rows
    .sort((a, b) => a.id - b.id)
    .map((s) => ({
      id: s.id,
      name: `${s.first_name} ${s.last_name}`,
      updated_at: s.updated_at.toISOString(),
      texts: Object.fromEntries(MERGE_FIELDS.map((field) => [field, fieldText(s, field, values)])) as MergeMember["texts"],
    }));
  return (
    <div className="space-y-5">
      <nav aria-label={common("breadcrumb")} className="text-sm">
        <Link href="/subscribers/duplicates" className="text-brand-700 hover:underline">
          {t("mergePage.back")}
        </Link>
      </nav>
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{t("mergePage.title", { count: members.length, n: f.count(members.length) })}</h1>
        <p className="mt-1 text-sm text-slate-600">{t("mergePage.intro")}</p>
      </div>
      {rows.length < parsed.value.ids.length ? (
        <p role="status" className="text-sm text-amber-900">{t("mergePage.someGone")}</p>
      ) : null}
      <ClientMessages namespaces={["duplicates.mergeForm", ...LIST_CLIENT_WORDS]}>
        <MergeForm members={members} labels={labels} />
      </ClientMessages>
    </div>
  );
}
