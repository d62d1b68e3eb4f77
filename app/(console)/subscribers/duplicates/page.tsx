import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { ListBody, ListResults } from "@/components/list/list-results";
import { EmptyState } from "@/components/list/list-states";
import { ListToolbar } from "@/components/list/list-toolbar";
import type { ListFilters } from "@/components/list/filter-bar";
import { ListTable } from "@/components/list/list-table";
import { ClientMessages } from "@/components/client-messages";
import { Badge, EmptyValue } from "@/components/ui/badge";
import { requirePageUser } from "@/lib/auth/page-guards";
import { canMergeSubscribers, type SessionUser } from "@/lib/auth/permissions";
import { countryNamer } from "@/lib/countries/names";
import { getFormats } from "@/lib/i18n/server";
import { listOutcome } from "@/lib/list/outcome";
import { withParams, type RawParams } from "@/lib/list/params";
import { parseWith } from "@/lib/list/parse";
import { heavy } from "@/lib/load/user-limit";
import { listBack } from "@/lib/subscribers/back";
import { duplicateFiltersSchema } from "@/lib/subscribers/duplicate-filters";
import { MERGE_FIELDS } from "@/lib/subscribers/duplicate-schema";
import { listDuplicateGroups, type DuplicateGroup } from "@/lib/subscribers/duplicate-groups";
import { fieldText, labelOf, type FieldWords, type ValueWords } from "@/lib/subscribers/merge-fields";
import { subscriberSearch, type FilterWords } from "../filter-fields";
import { DismissButton } from "./dismiss-button";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("duplicates");
  return { title: t("metaTitle") };
}

const PATH = "/subscribers/duplicates";

type Words = Awaited<ReturnType<typeof getTranslations<"duplicates">>>;
type Page = { t: Words; f: Awaited<ReturnType<typeof getFormats>>; labels: FieldWords; values: ValueWords };

/** Groups of subscribers sharing an email or a mobile, side by side, with what differs marked. */
export default async function DuplicatesPage({ searchParams }: { searchParams: Promise<RawParams> }) {
  const common = await getTranslations("common");
  const params = await searchParams;
  const user = await requirePageUser(`${PATH}${withParams(params, {})}`);
  const parsed = parseWith(duplicateFiltersSchema, params);
  const scope = user.scope;
  const t = await getTranslations("duplicates");
  const all = (await getTranslations()) as unknown as FilterWords;
  const f = await getFormats();
  // The `fields` namespace is the field catalogue's (lib/subscribers/fields.ts): read here, never written.
  const labels = (await getTranslations("fields")) as unknown as FieldWords;
  const values: ValueWords = {
    day: f.day,
    status: (status) => t("value.status", { status }),
    flag: (value) => (value ? t("value.yes") : t("value.no")),
    country: await countryNamer(f.locale),
  };
  const toolbar: ListFilters = {
    search: subscriberSearch(all),
    fields: [{ kind: "select", name: "rule", label: t("filterShared"), options: [{ value: "email", label: t("rule.email") }, { value: "mobile", label: t("rule.mobile") }] }],
    keys: ["q", "rule"],
  };
  return (
    <div className="space-y-5">
      <nav aria-label={common("breadcrumb")} className="text-sm">
        <Link href={listBack(params.back)} className="text-brand-700 hover:underline">
          {t("back")}
        </Link>
      </nav>
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
        <p className="mt-1 text-sm text-slate-600">{t("intro", { merge: canMergeSubscribers(user) ? "yes" : "no" })}</p>
      </div>
      <ListToolbar filters={toolbar} params={params} path={PATH} />
      <ListBody parsed={parsed} params={params} path={PATH}>
        {(filters) => (
          <ListResults
            list={listOutcome(() => heavy(user.id, () => listDuplicateGroups(scope, filters)))}
            params={params}
            path={PATH}
            noun="groups"
            empty={
              filters.q || filters.rule ? (
                <EmptyState title={t("emptyFilteredTitle")}>{t("emptyFilteredBody")}</EmptyState>
              ) : (
                <EmptyState title={t("emptyTitle")}>{t("emptyBody")}</EmptyState>
              )
            }
          >
            {(groups) => groups.map((group) => <Group key={`${group.rule}:${group.key}`} group={group} user={user} page={{ t, f, labels, values }} />)}
          </ListResults>
        )}
      </ListBody>
    </div>
  );
}

function Group({ group, user, page: { t, f, labels, values } }: { group: DuplicateGroup; user: SessionUser; page: Page }) {
  const members = group.subscribers;
  const title = t("groupTitle", { rule: group.rule, key: group.key });
  const headingId = `group-${group.rule}-${members[0]?.id ?? 0}`;
  const named = members.map((m) => ({ id: m.id, name: `${m.first_name} ${m.last_name}` }));
  return (
    <section aria-labelledby={headingId} className="space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-base font-semibold text-slate-900">
          {t.rich("groupHeading", { rule: group.rule, key: group.key, k: (chunks) => <bdi dir="ltr" className="font-mono text-sm">{chunks}</bdi> })}{" "}
          <span className="text-sm font-normal text-slate-600">{t("groupSize", { count: members.length, n: f.count(members.length) })}</span>
        </h2>
        <div className="flex gap-2">
          <ClientMessages namespaces={["duplicates.dismiss"]}>
            <DismissButton members={named} label={title} />
          </ClientMessages>
          {canMergeSubscribers(user) ? (
            <Link href={`${PATH}/merge?ids=${members.map((m) => m.id).join(",")}`} className="btn btn-primary py-1.5" aria-label={t("mergeLabel", { group: title })}>
              {t("merge")}
            </Link>
          ) : null}
        </div>
      </div>
      <ListTable
        caption={t("caption", { group: title })}
        header={
          <>
            <th scope="col" className="px-3 py-2 text-start font-medium text-slate-600">{t("field")}</th>
            {members.map((m) => (
              <th key={m.id} scope="col" className="px-3 py-2 text-start font-medium">
                <a href={`/subscribers/${m.id}`} className="text-brand-700 hover:underline">
                  #{m.id} <bdi>{`${m.first_name} ${m.last_name}`}</bdi>
                </a>
              </th>
            ))}
          </>
        }
      >
        {MERGE_FIELDS.map((field) => {
          const texts = members.map((m) => fieldText(m, field, values));
          const differs = new Set(texts).size > 1;
          return (
            <tr key={field} className={differs ? "bg-amber-50/70" : undefined}>
              <th scope="row" className="whitespace-nowrap px-3 py-2 text-start font-normal text-slate-600">
                {labelOf(labels, field)} {differs ? <Badge tone="amber">{t("differs")}</Badge> : null}
              </th>
              {texts.map((text, i) => (
                <td key={members[i]!.id} className={`px-3 py-2 ${differs ? "font-medium text-slate-900" : "text-slate-700"}`}>
                  {text === null ? <EmptyValue /> : <bdi dir={field === "mobile" ? "ltr" : undefined}>{text}</bdi>}
                </td>
              ))}
            </tr>
          );
        })}
        <tr>
          <th scope="row" className="whitespace-nowrap px-3 py-2 text-start font-normal text-slate-600">{t("created")}</th>
          {members.map((m) => (
            <td key={m.id} className="px-3 py-2 text-slate-600">
              <time dateTime={m.created_at.toISOString()}>{f.dateTime(m.created_at)}</time>
            </td>
          ))}
        </tr>
      </ListTable>
    </section>
  );
}
