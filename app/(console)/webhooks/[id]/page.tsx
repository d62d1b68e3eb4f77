import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ListBody, ListResults } from "@/components/list/list-results";
import { EmptyState } from "@/components/list/list-states";
import { ListTable, PlainHeader } from "@/components/list/list-table";
import { EmptyValue } from "@/components/ui/badge";
import { requirePageAdmin } from "@/lib/auth/page-guards";
import { config } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { formatDateTime } from "@/lib/format";
import { listOutcome } from "@/lib/list/outcome";
import { parseWith, withParams, type RawParams } from "@/lib/list/params";
import { parseId } from "@/lib/validation/id";
import { getWebhook, listDeliveries, type WebhookRow } from "@/lib/webhooks/endpoints";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/events";
import { webhookListQuerySchema } from "@/lib/webhooks/schema";
import { DeliveryBadge, StatusBadge } from "../status-badge";
import { ResendButton, WebhookActions } from "../webhook-actions";

export const metadata: Metadata = { title: "Webhook deliveries" };

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
  return (
    <div className="space-y-5">
      <div className="space-y-1">
        <Link href="/webhooks" className="text-sm text-brand-700 hover:underline">
          ← Webhooks
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
          <p className="font-semibold">The console turned this endpoint off: no events are sent to it until you turn it on again.</p>
          <p className="mt-1">{webhook.disabled_reason}</p>
        </div>
      ) : null}
      <dl className="grid gap-x-6 gap-y-2 rounded-lg border border-slate-200 bg-white p-4 text-sm shadow-sm sm:grid-cols-[auto_1fr]">
        <dt className="font-medium text-slate-700">Status</dt>
        <dd>
          <StatusBadge row={webhook} />
          {webhook.failing_since ? (
            <span className="ms-2 text-slate-600">
              failing since <time dateTime={webhook.failing_since.toISOString()}>{formatDateTime(webhook.failing_since)}</time>
            </span>
          ) : null}
        </dd>
        <dt className="font-medium text-slate-700">Events</dt>
        <dd className="text-xs">
          {webhook.events.map((event) => (
            <code key={event} className="me-1.5 inline-block">
              {event}
            </code>
          ))}
        </dd>
        {webhook.previous_secret_until && webhook.previous_secret_until > new Date() ? (
          <>
            <dt className="font-medium text-slate-700">Old secret</dt>
            <dd className="text-slate-600">
              still signs until <time dateTime={webhook.previous_secret_until.toISOString()}>{formatDateTime(webhook.previous_secret_until)}</time>
            </dd>
          </>
        ) : null}
        <dt className="font-medium text-slate-700">Created</dt>
        <dd className="text-slate-600">
          <time dateTime={webhook.created_at.toISOString()}>{formatDateTime(webhook.created_at)}</time>
        </dd>
      </dl>
      <WebhookActions
        webhook={{ id: webhook.id, url: webhook.url, description: webhook.description, events: webhook.events, enabled: webhook.enabled }}
        events={EVENTS}
        overlapHours={config().WEBHOOK_SECRET_OVERLAP_HOURS}
        afterDelete="/webhooks"
      />
      <h2 className="text-lg font-semibold text-slate-900">Deliveries</h2>
      <ListBody parsed={parsed} params={query} path={path}>
        {({ page }) => <Deliveries webhookId={webhook.id} page={page} params={query} path={path} />}
      </ListBody>
    </div>
  );
}

async function Deliveries({ webhookId, page, params, path }: { webhookId: number; page: number; params: RawParams; path: string }) {
  const list = listOutcome(() => listDeliveries(webhookId, page));
  return (
    <ListResults
      list={list}
      params={params}
      path={path}
      noun={["delivery", "deliveries"]}
      empty={<EmptyState title="No deliveries yet">Events this endpoint receives are listed here. &ldquo;Send test event&rdquo; sends one now.</EmptyState>}
    >
      {(rows) => (
        <ListTable
          caption="Deliveries"
          header={
            <>
              <PlainHeader label="Event" />
              <PlainHeader label="Status" />
              <PlainHeader label="Attempts" />
              <PlainHeader label="Response" />
              <PlainHeader label="Duration" />
              <PlainHeader label="Answer" />
              <PlainHeader label="Next attempt" />
              <PlainHeader label="Created" />
              <PlainHeader label="Actions" />
            </>
          }
        >
          {rows.map((d) => (
            <tr key={String(d.id)} className="align-top hover:bg-slate-50/60">
              <td className="px-3 py-2.5">
                <code className="text-xs font-medium">{d.type}</code>
                <p className="font-mono text-[11px] text-slate-500">{d.event_id}</p>
              </td>
              <td className="px-3 py-2.5 whitespace-nowrap">
                <DeliveryBadge status={d.status} />
              </td>
              <td className="px-3 py-2.5 text-end tabular-nums">{d.attempts}</td>
              <td className="px-3 py-2.5 tabular-nums">{d.response_status ?? <EmptyValue />}</td>
              <td className="px-3 py-2.5 whitespace-nowrap tabular-nums">{d.duration_ms === null ? <EmptyValue /> : `${d.duration_ms} ms`}</td>
              <td className="max-w-64 px-3 py-2.5">
                {d.response_body ? <code className="line-clamp-3 text-xs break-all whitespace-pre-wrap text-slate-700">{d.response_body.slice(0, 200)}</code> : <EmptyValue />}
              </td>
              <td className="px-3 py-2.5 whitespace-nowrap text-slate-600">
                {d.next_attempt_at && (d.status === "pending" || d.status === "failed") ? <time dateTime={d.next_attempt_at.toISOString()}>{formatDateTime(d.next_attempt_at)}</time> : <EmptyValue />}
              </td>
              <td className="px-3 py-2.5 whitespace-nowrap text-slate-600">
                <time dateTime={d.created_at.toISOString()}>{formatDateTime(d.created_at)}</time>
              </td>
              <td className="px-3 py-1.5">
                <ResendButton webhookId={webhookId} deliveryId={Number(d.id)} label={`Resend ${d.type} ${d.event_id}`} />
              </td>
            </tr>
          ))}
        </ListTable>
      )}
    </ListResults>
  );
}
