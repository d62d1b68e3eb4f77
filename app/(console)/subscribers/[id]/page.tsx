import type { Metadata } from "next";
import { FIELD } from "@/lib/subscribers/fields";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Badge, EmptyValue } from "@/components/ui/badge";
import { buttonClass } from "@/components/ui/button-styles";
import { requirePageUser } from "@/lib/auth/page-guards";
import { canManageBranches } from "@/lib/auth/permissions";
import { config } from "@/lib/config";
import { formatDateTime, formatDay, isoDay } from "@/lib/format";
import { STATUS_LABEL, STATUS_TONE } from "@/lib/subscribers/labels";
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
  return { title: `Subscriber ${(await params).id.slice(0, 12)}` };
}

/** One subscriber: every field, the earlier subscribers it duplicates and by which rule, its history. */
export default async function SubscriberPage({ params, searchParams }: Props) {
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

  const fields: [string, React.ReactNode][] = [
    [FIELD.id.label, <span key="id" className="font-mono">{s.id}</span>],
    [FIELD.first_name.label, <bdi key="f">{s.first_name}</bdi>],
    [FIELD.last_name.label, <bdi key="l">{s.last_name}</bdi>],
    [FIELD.email.label, <bdi key="e">{s.email}</bdi>],
    [FIELD.mobile.label, <span key="m" className="font-mono">{s.mobile}</span>],
    [FIELD.branch_name.label, s.branch_name ? <bdi key="b">{s.branch_name}</bdi> : <EmptyValue key="b" />],
    [FIELD.country_name.label, s.country_name ? <bdi key="c">{s.country_name}</bdi> : <EmptyValue key="c" />],
    [FIELD.travel_date.label, s.travel_date ? <time key="t" dateTime={isoDay(s.travel_date)}>{formatDay(s.travel_date)}</time> : <EmptyValue key="t" />],
    [
      FIELD.sheet.label,
      s.sheet_name ? (
        <Link key="sh" href={`/subscribers?sheet=${encodeURIComponent(s.sheet_name)}`} className="text-brand-700 underline-offset-2 hover:underline">
          <bdi>{s.sheet_name}</bdi>
        </Link>
      ) : (
        <EmptyValue key="sh" />
      ),
    ],
    [FIELD.subscription_status.label, <Badge key="st" tone={STATUS_TONE[s.subscription_status]}>{STATUS_LABEL[s.subscription_status]}</Badge>],
    [FIELD.is_duplicate.label, s.is_duplicate ? <Badge key="d" tone="amber">Duplicate</Badge> : "No"],
    [FIELD.is_mandatory.label, s.is_mandatory ? <Badge key="md" tone="violet">Mandatory</Badge> : "No"],
    [FIELD.created_at.label, <time key="cr" dateTime={s.created_at.toISOString()}>{formatDateTime(s.created_at, { seconds: true })}</time>],
    [FIELD.updated_at.label, <time key="up" dateTime={s.updated_at.toISOString()}>{formatDateTime(s.updated_at, { seconds: true })}</time>],
  ];

  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link href={back} className="text-brand-700 hover:underline">
          ← Subscribers
        </Link>
      </nav>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">
            <bdi>{name}</bdi>
          </h1>
          <p className="mt-1 text-sm text-slate-600">Subscriber #{s.id}</p>
        </div>
        <div className="flex gap-2">
          <Link href={`/subscribers/${s.id}/edit${backQuery(back)}`} className={buttonClass.primary}>
            Edit
          </Link>
          {admin ? <DeleteSubscriberButton id={s.id} name={name} /> : null}
        </div>
      </div>

      <section aria-labelledby="fields-heading" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="fields-heading" className="sr-only">Fields</h2>
        <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2">
          {fields.map(([label, value]) => (
            <div key={label} className="grid grid-cols-[8rem_1fr] gap-2 text-sm">
              <dt className="text-slate-500">{label}</dt>
              <dd className="min-w-0 break-words text-slate-900">{value}</dd>
            </div>
          ))}
        </dl>
      </section>

      {s.is_duplicate ? (
        <section aria-labelledby="duplicate-heading" className="rounded-lg border border-amber-200 bg-amber-50/60 p-5">
          <h2 id="duplicate-heading" className="font-semibold text-amber-950">
            A duplicate of {matches.length === 1 ? "an earlier subscriber" : "earlier subscribers"}
          </h2>
          <p className="mt-1 text-sm text-amber-900">The rule: an earlier subscriber has the same email (case ignored) or the same mobile number.</p>
          {elsewhere ? <p className="mt-3 text-sm text-slate-700">It matches a subscriber in another branch (not one of yours).</p> : null}
          {matches.length ? (
            <ul className="mt-3 space-y-1 text-sm">
              {matches.map((m) => (
                <li key={m.id}>
                  <Link href={`/subscribers/${m.id}`} className="font-medium text-brand-700 hover:underline">
                    #{m.id} <bdi>{`${m.first_name} ${m.last_name}`}</bdi>
                  </Link>{" "}
                  <span className="text-slate-700">
                    — same {m.email && m.mobile ? "email and mobile" : m.email ? "email" : "mobile"}, created {formatDateTime(m.created_at)}
                  </span>
                </li>
              ))}
            </ul>
          ) : elsewhere ? null : (
            <p className="mt-3 text-sm text-slate-700">The earlier subscribers it matched no longer exist.</p>
          )}
        </section>
      ) : null}

      {merges.length || dismissals.length ? (
        <section aria-labelledby="duplicates-heading" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
          <h2 id="duplicates-heading" className="font-semibold">Merges and “not duplicates”</h2>
          <ul className="mt-3 space-y-2 text-sm">
            {merges.map((m, i) => (
              <li key={m.id} id={`merge-${m.id}`} className="flex flex-wrap items-center gap-2">
                <span>
                  Merged from {m.merged_ids.map((id) => `#${id}`).join(", ")} on {formatDateTime(m.created_at)}.
                </span>
                {i === 0 ? <UndoMergeButton mergeId={m.id} survivor={s.id} merged={m.merged_ids} /> : null}
              </li>
            ))}
            {dismissals.map((d) => (
              <li key={d.other_id} className="flex flex-wrap items-center gap-2">
                <span>
                  Not a duplicate of{" "}
                  <Link href={`/subscribers/${d.other_id}`} className="font-medium text-brand-700 hover:underline">
                    #{d.other_id}
                  </Link>{" "}
                  (marked by <bdi>{d.by ?? "someone"}</bdi>, {formatDateTime(d.created_at)}).
                </span>
                {admin ? <UndoDismissalButton id={s.id} other={d.other_id} /> : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="history-heading" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="history-heading" className="font-semibold">History</h2>
        <History entries={history} merges={merges.map((m) => m.id)} />
        <p className="mt-4 text-xs text-slate-500">
          {`Bulk changes are listed here; one made by filters for ${config().TRASH_RETENTION_DAYS} days, while it can be undone, and not once undone. Each is also one event in the `}
          {canManageBranches(user) ? (
            <a href="/audit?action=subscriber.bulk_change" className="text-brand-700 underline underline-offset-2">
              audit log
            </a>
          ) : (
            "audit log (administrators)"
          )}
          , with its filters and count.
        </p>
      </section>

      {/* Rarely used and not undoable: after the record, not between its name and its fields. */}
      {person ? (
        <section aria-labelledby="personal-data-heading" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
          <h2 id="personal-data-heading" className="font-semibold">Personal data</h2>
          <p className="mt-1 text-sm text-slate-600">
            This person has {person.total === 1 ? "1 record" : `${person.total} records`} sharing this email or mobile (in the lists, the trash and merged away).
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            <a href={`/api/v1/people/export?subscriber_id=${s.id}`} download className={buttonClass.secondary}>
              Download personal data
            </a>
            <ErasePersonButton id={s.id} name={name} email={s.email} mobile={s.mobile} counts={person} />
          </div>
        </section>
      ) : null}
    </div>
  );
}
