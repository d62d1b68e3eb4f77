import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/client-messages";
import { FIELD } from "@/lib/subscribers/fields";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Badge, EmptyValue } from "@/components/ui/badge";
import { buttonClass } from "@/components/ui/button-styles";
import { requirePageUser } from "@/lib/auth/page-guards";
import { canManageBranches } from "@/lib/auth/permissions";
import { config } from "@/lib/config";
import { isoDay } from "@/lib/format";
import { countryNamer } from "@/lib/countries/names";
import { getFormats } from "@/lib/i18n/server";
import { statusKey, STATUS_TONE } from "@/lib/subscribers/labels";
import { dismissalsOf } from "@/lib/subscribers/dismissals";
import { mergesInto } from "@/lib/subscribers/merge";
import { earlierMatches, findSubscriber, subscriberHistory } from "@/lib/subscribers/record";
import { query } from "@/lib/db/sql";
import { parseId } from "@/lib/validation/id";
import type { RawParams } from "@/lib/list/params";
import { backQuery, listBack } from "@/lib/subscribers/back";
import { personCounts } from "@/lib/people/find";
import { DeleteSubscriberButton } from "./delete-subscriber-button";
import { History } from "./history";
import { ErasePersonButton } from "./person-actions";
import { UndoDismissalButton, UndoMergeButton } from "./undo-buttons";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<RawParams> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: (await getTranslations("record"))("metaTitle", { id: (await params).id.slice(0, 12) }) };
}

/** One subscriber: every field, the earlier subscribers it duplicates and by which rule, its history. */
export default async function SubscriberPage({ params, searchParams }: Props) {
  const common = await getTranslations("common");
  const raw = (await params).id;
  const back = listBack((await searchParams).back);
  const user = await requirePageUser(`/subscribers/${encodeURIComponent(raw)}${backQuery(back)}`);
  const id = parseId(raw);
  const scope = user.scope;
  const s = id === null ? null : await findSubscriber(scope, id);
  if (!s) notFound();
  const admin = canManageBranches(user);
  const [{ matches, elsewhere }, history, dismissals, merges, person] = await Promise.all([
    s.is_duplicate ? earlierMatches(scope, s) : Promise.resolve({ matches: [], elsewhere: false }),
    subscriberHistory(scope, s.id),
    dismissalsOf({ query }, scope, s.id),
    admin ? mergesInto({ query }, s.id) : Promise.resolve([]),
    admin ? personCounts(scope, s.id) : Promise.resolve(null),
  ]);
  const name = `${s.first_name} ${s.last_name}`;
  const [t, all, f] = await Promise.all([getTranslations("record"), getTranslations(), getFormats()]);
  const country = await countryNamer(f.locale);
  const no = all("subscribers.no");

  const fields: [string, React.ReactNode][] = [
    [all(FIELD.id.key), <span key="id" className="font-mono">{s.id}</span>],
    [all(FIELD.first_name.key), <bdi key="f">{s.first_name}</bdi>],
    [all(FIELD.last_name.key), <bdi key="l">{s.last_name}</bdi>],
    [all(FIELD.email.key), <bdi key="e" dir="ltr">{s.email}</bdi>],
    [all(FIELD.mobile.key), <bdi key="m" dir="ltr" className="font-mono">{s.mobile}</bdi>],
    [all(FIELD.branch_name.key), s.branch_name ? <bdi key="b">{s.branch_name}</bdi> : <EmptyValue key="b" />],
    [all(FIELD.country_name.key), s.country_name ? <bdi key="c">{country(s.country_name)}</bdi> : <EmptyValue key="c" />],
    [all(FIELD.travel_date.key), s.travel_date ? <time key="t" dateTime={isoDay(s.travel_date)}>{f.day(s.travel_date)}</time> : <EmptyValue key="t" />],
    [
      all(FIELD.sheet.key),
      s.sheet_name ? (
        <Link key="sh" href={`/subscribers?sheet=${encodeURIComponent(s.sheet_name)}`} className="text-brand-700 underline-offset-2 hover:underline">
          <bdi>{s.sheet_name}</bdi>
        </Link>
      ) : (
        <EmptyValue key="sh" />
      ),
    ],
    [all(FIELD.subscription_status.key), <Badge key="st" tone={STATUS_TONE[s.subscription_status]}>{all(statusKey(s.subscription_status))}</Badge>],
    [all(FIELD.is_duplicate.key), s.is_duplicate ? <Badge key="d" tone="amber">{all("subscribers.table.duplicate")}</Badge> : no],
    [all(FIELD.is_mandatory.key), s.is_mandatory ? <Badge key="md" tone="violet">{all("subscribers.table.mandatory")}</Badge> : no],
    [all(FIELD.created_at.key), <time key="cr" dateTime={s.created_at.toISOString()}>{f.dateTime(s.created_at, { seconds: true })}</time>],
    [all(FIELD.updated_at.key), <time key="up" dateTime={s.updated_at.toISOString()}>{f.dateTime(s.updated_at, { seconds: true })}</time>],
  ];

  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <nav aria-label={common("breadcrumb")} className="text-sm">
        <Link href={back} className="text-brand-700 hover:underline">
          {t("back")}
        </Link>
      </nav>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">
            <bdi>{name}</bdi>
          </h1>
          <p className="mt-1 text-sm text-slate-600">{t("number", { id: String(s.id) })}</p>
        </div>
        <div className="flex gap-2">
          <Link href={`/subscribers/${s.id}/edit${backQuery(back)}`} className={buttonClass.primary}>
            {t("edit")}
          </Link>
          {admin ? (
            <ClientMessages namespaces={["record.delete"]}>
              <DeleteSubscriberButton id={s.id} name={name} />
            </ClientMessages>
          ) : null}
        </div>
      </div>

      <section aria-labelledby="fields-heading" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="fields-heading" className="sr-only">{t("fieldsHeading")}</h2>
        <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2">
          {fields.map(([label, value]) => (
            <div key={label} className="grid grid-cols-[8rem_minmax(0,1fr)] gap-2 text-sm">
              <dt className="text-slate-500">{label}</dt>
              <dd className="min-w-0 break-words text-slate-900">{value}</dd>
            </div>
          ))}
        </dl>
      </section>

      {s.is_duplicate ? (
        <section aria-labelledby="duplicate-heading" className="rounded-lg border border-amber-200 bg-amber-50/60 p-5">
          <h2 id="duplicate-heading" className="font-semibold text-amber-950">
            {t("duplicateHeading", { count: matches.length })}
          </h2>
          <p className="mt-1 text-sm text-amber-900">{t("duplicateRule")}</p>
          {elsewhere ? <p className="mt-3 text-sm text-slate-700">{t("duplicateElsewhere")}</p> : null}
          {matches.length ? (
            <ul className="mt-3 space-y-1 text-sm">
              {matches.map((m) => (
                <li key={m.id}>
                  <Link href={`/subscribers/${m.id}`} className="font-medium text-brand-700 hover:underline">
                    {t.rich("matchName", { id: String(m.id), name: `${m.first_name} ${m.last_name}`, bdi: (c) => <bdi>{c}</bdi> })}
                  </Link>{" "}
                  <span className="text-slate-700">
                    {t("matchSame", { same: m.email && m.mobile ? "both" : m.email ? "email" : "mobile", created: f.dateTime(m.created_at) })}
                  </span>
                </li>
              ))}
            </ul>
          ) : elsewhere ? null : (
            <p className="mt-3 text-sm text-slate-700">{t("matchesGone")}</p>
          )}
        </section>
      ) : null}

      {merges.length || dismissals.length ? (
        <section aria-labelledby="duplicates-heading" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
          <h2 id="duplicates-heading" className="font-semibold">{t("mergesHeading")}</h2>
          <ul className="mt-3 space-y-2 text-sm">
            {merges.map((m, i) => (
              <li key={m.id} id={`merge-${m.id}`} className="flex flex-wrap items-center gap-2">
                <span>{t("mergedFrom", { ids: m.merged_ids.map((id) => `#${id}`).join(t("listSeparator")), at: f.dateTime(m.created_at) })}</span>
                {i === 0 ? (
                  <ClientMessages namespaces={["record.undo"]}>
                    <UndoMergeButton mergeId={m.id} survivor={s.id} merged={m.merged_ids} />
                  </ClientMessages>
                ) : null}
              </li>
            ))}
            {dismissals.map((d) => (
              <li key={d.other_id} className="flex flex-wrap items-center gap-2">
                <span>
                  {t.rich("notDuplicateOf", {
                    id: String(d.other_id),
                    by: d.by ?? t("someone"),
                    at: f.dateTime(d.created_at),
                    link: (c) => (
                      <Link href={`/subscribers/${d.other_id}`} className="font-medium text-brand-700 hover:underline">
                        {c}
                      </Link>
                    ),
                    bdi: (c) => <bdi>{c}</bdi>,
                  })}
                </span>
                {admin ? (
                  <ClientMessages namespaces={["record.undo"]}>
                    <UndoDismissalButton id={s.id} other={d.other_id} />
                  </ClientMessages>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="history-heading" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="history-heading" className="font-semibold">{t("historyHeading")}</h2>
        <History entries={history} merges={merges.map((m) => m.id)} />
        <p className="mt-4 text-xs text-slate-500">
          {canManageBranches(user)
            ? t.rich("bulkNoteAdmin", {
                days: config().TRASH_RETENTION_DAYS,
                audit: (c) => (
                  <a href="/audit?action=subscriber.bulk_change" className="text-brand-700 underline underline-offset-2">
                    {c}
                  </a>
                ),
              })
            : t("bulkNote", { days: config().TRASH_RETENTION_DAYS })}
        </p>
      </section>

      {/* Rarely used and not undoable: after the record, not between its name and its fields. */}
      {person ? (
        <section aria-labelledby="personal-data-heading" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
          <h2 id="personal-data-heading" className="font-semibold">{t("personalHeading")}</h2>
          <p className="mt-1 text-sm text-slate-600">{t("personalRecords", { count: person.total })}</p>
          <div className="mt-3 flex flex-wrap gap-2">
            <a href={`/api/v1/people/export?subscriber_id=${s.id}`} download className={buttonClass.secondary}>
              {t("personalDownload")}
            </a>
            <ClientMessages namespaces={["record.erase"]}>
              <ErasePersonButton id={s.id} name={name} email={s.email} mobile={s.mobile} counts={person} />
            </ClientMessages>
          </div>
        </section>
      ) : null}
    </div>
  );
}
