import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/client-messages";
import { ListBody, ListResults } from "@/components/list/list-results";
import { EmptyState } from "@/components/list/list-states";
import { ListTable, PlainHeader } from "@/components/list/list-table";
import { EmptyValue } from "@/components/ui/badge";
import { requirePageAdmin } from "@/lib/auth/page-guards";
import { config } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { getFormats } from "@/lib/i18n/server";
import { problemsIn } from "@/lib/i18n/problems-in";
import { requestLocale } from "@/lib/i18n/request";
import { listOutcome } from "@/lib/list/outcome";
import { withParams, type RawParams } from "@/lib/list/params";
import { parseWith } from "@/lib/list/parse";
import { parseId } from "@/lib/validation/id";
import { answerText } from "@/lib/webhooks/answer";
import { getWebhook, listDeliveries, type WebhookRow } from "@/lib/webhooks/endpoints";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/events";
import { disabledReasonProblem } from "@/lib/webhooks/disabled-reason";
import { webhookListQuerySchema } from "@/lib/webhooks/schema";
import { WEBHOOK_CLIENT_MESSAGES } from "../client-messages";
import { DeliveryBadge, StatusBadge } from "../status-badge";
import { ResendButton, WebhookActions } from "../webhook-actions";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("webhooks.detail");
  return { title: t("metaTitle") };
}

const EVENTS = WEBHOOK_EVENT_TYPES.filter((type) => type !== "ping");

/** One endpoint: what it receives, its actions, and its deliveries (each attempt's answer), newest first. */
export default async function WebhookPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<RawParams> }) {
  const [{ id: raw }, query] = await Promise.all([params, searchParams]);
  const path = `/webhooks/${raw}`;
  await requirePageAdmin(`${path}${withParams(query, {})}`);
  const id = parseId(raw);
  if (id === null) notFound();
  let webhook: WebhookRow;
  try {
    webhook = await getWebhook(id);
  } catch (error) {
    if (AppError.is(error) && error.status === 404) notFound();
    throw error;
  }
  const parsed = parseWith(webhookListQuerySchema, query);
  const [t, f, words] = await Promise.all([getTranslations("webhooks.detail"), getFormats(), requestLocale().then(problemsIn)]);
  return (
    <div className="space-y-5">
      <div className="space-y-1">
        <Link href="/webhooks" className="text-sm text-brand-700 hover:underline">
          <span aria-hidden="true" className="inline-block rtl:rotate-180">
            ←
          </span>{" "}
          {t("back")}
        </Link>
        <h1 className="text-2xl font-semibold tracking-tight break-all">
          <bdi>{webhook.url}</bdi>
        </h1>
        {webhook.description ? (
          <p className="text-sm text-slate-600">
            <bdi>{webhook.description}</bdi>
          </p>
        ) : null}
      </div>
      {!webhook.enabled && webhook.disabled_reason ? (
        <div role="alert" className="rounded-lg border border-red-300 bg-red-50 p-4 text-sm text-red-900">
          <p className="font-semibold">{t("consoleOff")}</p>
          <p className="mt-1">{words(disabledReasonProblem(webhook.disabled_reason))}</p>
        </div>
      ) : null}
      <dl className="grid gap-x-6 gap-y-2 rounded-lg border border-slate-200 bg-white p-4 text-sm shadow-sm sm:grid-cols-[auto_1fr]">
        <dt className="font-medium text-slate-700">{t("status")}</dt>
        <dd>
          <StatusBadge row={webhook} />
          {webhook.failing_since ? (
            <span className="ms-2 text-slate-600">
              {t.rich("failingSince", { date: f.dateTime(webhook.failing_since), when: (c) => <time dateTime={webhook.failing_since!.toISOString()}>{c}</time> })}
            </span>
          ) : null}
        </dd>
        <dt className="font-medium text-slate-700">{t("events")}</dt>
        <dd className="text-xs">
          {webhook.events.map((event) => (
            <code key={event} dir="ltr" className="me-1.5 inline-block">
              {event}
            </code>
          ))}
        </dd>
        {webhook.previous_secret_until && webhook.previous_secret_until > new Date() ? (
          <>
            <dt className="font-medium text-slate-700">{t("oldSecret")}</dt>
            <dd className="text-slate-600">
              {t.rich("oldSecretUntil", { date: f.dateTime(webhook.previous_secret_until), when: (c) => <time dateTime={webhook.previous_secret_until!.toISOString()}>{c}</time> })}
            </dd>
          </>
        ) : null}
        <dt className="font-medium text-slate-700">{t("created")}</dt>
        <dd className="text-slate-600">
          <time dateTime={webhook.created_at.toISOString()}>{f.dateTime(webhook.created_at)}</time>
        </dd>
      </dl>
      <ClientMessages namespaces={WEBHOOK_CLIENT_MESSAGES}>
        <WebhookActions
          webhook={{ id: webhook.id, url: webhook.url, description: webhook.description, events: webhook.events, enabled: webhook.enabled }}
          events={EVENTS}
          overlapHours={config().WEBHOOK_SECRET_OVERLAP_HOURS}
          afterDelete="/webhooks"
        />
      </ClientMessages>
      <h2 className="text-lg font-semibold text-slate-900">{t("deliveries")}</h2>
      <ListBody parsed={parsed} params={query} path={path}>
        {({ page }) => <Deliveries webhookId={webhook.id} page={page} params={query} path={path} />}
      </ListBody>
    </div>
  );
}

async function Deliveries({ webhookId, page, params, path }: { webhookId: number; page: number; params: RawParams; path: string }) {
  const list = listOutcome(() => listDeliveries(webhookId, page));
  const [t, f, words] = await Promise.all([getTranslations("webhooks.detail"), getFormats(), requestLocale().then(problemsIn)]);
  const now = new Date();
  return (
    <ListResults
      list={list}
      params={params}
      path={path}
      noun="deliveries"
      empty={<EmptyState title={t("emptyTitle")}>{t("emptyBody")}</EmptyState>}
    >
      {(rows) => (
        <ClientMessages namespaces={WEBHOOK_CLIENT_MESSAGES}>
          <ListTable
            caption={t("deliveries")}
            header={
              <>
                <PlainHeader label={t("column.event")} />
                <PlainHeader label={t("column.status")} />
                <PlainHeader label={t("column.attempts")} />
                <PlainHeader label={t("column.response")} />
                <PlainHeader label={t("column.duration")} />
                <PlainHeader label={t("column.answer")} />
                <PlainHeader label={t("column.nextAttempt")} />
                <PlainHeader label={t("column.created")} />
                <PlainHeader label={t("column.actions")} />
              </>
            }
          >
            {rows.map((d) => (
              <tr key={String(d.id)} className="align-top hover:bg-slate-50/60">
                <td className="px-3 py-2.5">
                  <code dir="ltr" className="text-xs font-medium">
                    {d.type}
                  </code>
                  <p dir="ltr" className="font-mono text-[11px] text-slate-500 text-start">
                    {d.event_id}
                  </p>
                </td>
                <td className="px-3 py-2.5 whitespace-nowrap">
                  <DeliveryBadge status={d.status} />
                </td>
                <td className="px-3 py-2.5 text-end tabular-nums">{f.count(d.attempts)}</td>
                <td className="px-3 py-2.5 tabular-nums">{d.response_status ?? <EmptyValue />}</td>
                <td className="px-3 py-2.5 whitespace-nowrap tabular-nums">{d.duration_ms === null ? <EmptyValue /> : t("duration", { ms: d.duration_ms })}</td>
                <td className="max-w-64 px-3 py-2.5">
                  {d.response_body ? (
                    <code dir="auto" className="line-clamp-3 text-xs break-all whitespace-pre-wrap text-slate-700">
                      {answerText(d.response_status, d.response_body, words).slice(0, 200)}
                    </code>
                  ) : (
                    <EmptyValue />
                  )}
                </td>
                <td className="px-3 py-2.5 whitespace-nowrap text-slate-600">
                  {d.next_attempt_at && (d.status === "pending" || d.status === "failed") ? (
                    <time dateTime={d.next_attempt_at.toISOString()} title={f.dateTime(d.next_attempt_at)}>
                      {f.relative(d.next_attempt_at, now)}
                    </time>
                  ) : (
                    <EmptyValue />
                  )}
                </td>
                <td className="px-3 py-2.5 whitespace-nowrap text-slate-600">
                  <time dateTime={d.created_at.toISOString()}>{f.dateTime(d.created_at)}</time>
                </td>
                <td className="px-3 py-1.5">
                  <ResendButton webhookId={webhookId} deliveryId={Number(d.id)} label={t("resendAria", { type: d.type, id: d.event_id })} />
                </td>
              </tr>
            ))}
          </ListTable>
        </ClientMessages>
      )}
    </ListResults>
  );
}
