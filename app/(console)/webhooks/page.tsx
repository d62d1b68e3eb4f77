import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/client-messages";
import { ListBody, ListResults } from "@/components/list/list-results";
import { EmptyState } from "@/components/list/list-states";
import { ListTable, PlainHeader } from "@/components/list/list-table";
import { buttonClass } from "@/components/ui/button-styles";
import { requirePageAdmin } from "@/lib/auth/page-guards";
import { config } from "@/lib/config";
import { getFormats } from "@/lib/i18n/server";
import { problemsIn } from "@/lib/i18n/problems-in";
import { requestLocale } from "@/lib/i18n/request";
import { listOutcome } from "@/lib/list/outcome";
import { withParams, type RawParams } from "@/lib/list/params";
import { parseWith } from "@/lib/list/parse";
import { listWebhooks, webhooksTurnedOff, type WebhookRow } from "@/lib/webhooks/endpoints";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/events";
import { disabledReasonProblem } from "@/lib/webhooks/disabled-reason";
import { webhookListQuerySchema } from "@/lib/webhooks/schema";
import { WEBHOOK_CLIENT_MESSAGES } from "./client-messages";
import { StatusBadge } from "./status-badge";
import { WebhookActions } from "./webhook-actions";
import { WebhookFormButton } from "./webhook-form";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("webhooks");
  return { title: t("title") };
}


const PATH = "/webhooks";
/** What an endpoint may subscribe to: `ping` is sent when asked for, whatever it receives. */
const EVENTS = WEBHOOK_EVENT_TYPES.filter((type) => type !== "ping");

export default async function WebhooksPage({ searchParams }: { searchParams: Promise<RawParams> }) {
  const params = await searchParams;
  await requirePageAdmin(`${PATH}${withParams(params, {})}`);
  const parsed = parseWith(webhookListQuerySchema, params);
  const [turnedOff, t] = await Promise.all([webhooksTurnedOff(), getTranslations("webhooks")]);
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
        <ClientMessages namespaces={WEBHOOK_CLIENT_MESSAGES}>
          <WebhookFormButton events={EVENTS} label={t("newEndpoint")} className={buttonClass.primary} />
        </ClientMessages>
      </div>
      <p className="max-w-3xl text-sm text-slate-600">{t("intro")}</p>
      {turnedOff.length ? <TurnedOff rows={turnedOff} /> : null}
      <ListBody parsed={parsed} params={params} path={PATH}>
        {({ page }) => <Results page={page} params={params} />}
      </ListBody>
    </div>
  );
}

/** The endpoints the console turned off, and why: prominent, as nothing reaches them until an administrator turns them on. */
async function TurnedOff({ rows }: { rows: WebhookRow[] }) {
  const [t, words] = await Promise.all([getTranslations("webhooks"), requestLocale().then(problemsIn)]);
  return (
    <div role="alert" className="space-y-2 rounded-lg border border-red-300 bg-red-50 p-4 text-sm text-red-900">
      <p className="font-semibold">{t("turnedOff", { count: rows.length })}</p>
      <ul className="list-disc space-y-1 ps-5">
        {rows.map((row) => (
          <li key={row.id}>
            {t.rich("turnedOffItem", {
              url: row.url,
              reason: words(disabledReasonProblem(row.disabled_reason ?? "")),
              link: (c) => (
                <Link href={`/webhooks/${row.id}`} className="font-medium break-all underline">
                  <bdi>{c}</bdi>
                </Link>
              ),
            })}
          </li>
        ))}
      </ul>
    </div>
  );
}

async function Results({ page, params }: { page: number; params: RawParams }) {
  const list = listOutcome(() => listWebhooks(page));
  const overlapHours = config().WEBHOOK_SECRET_OVERLAP_HOURS;
  const [t, f] = await Promise.all([getTranslations("webhooks"), getFormats()]);
  return (
    <ListResults
      list={list}
      params={params}
      path={PATH}
      noun="endpoints"
      empty={<EmptyState title={t("emptyTitle")}>{t("emptyBody")}</EmptyState>}
    >
      {(rows) => (
        <ClientMessages namespaces={WEBHOOK_CLIENT_MESSAGES}>
          <ListTable
            caption={t("caption")}
            header={
              <>
                <PlainHeader label={t("column.endpoint")} />
                <PlainHeader label={t("column.events")} />
                <PlainHeader label={t("column.status")} />
                <PlainHeader label={t("column.created")} />
                <PlainHeader label={t("column.actions")} />
              </>
            }
          >
            {rows.map((row) => (
              <tr key={row.id} className={row.enabled ? "hover:bg-slate-50/60" : "bg-slate-50/70"}>
                <td className="max-w-80 min-w-48 px-3 py-2.5 align-top">
                  <Link href={`/webhooks/${row.id}`} className="font-medium break-all text-brand-700 hover:underline">
                    <bdi>{row.url}</bdi>
                  </Link>
                  {row.description ? (
                    <p className="mt-0.5 text-xs text-slate-600">
                      <bdi>{row.description}</bdi>
                    </p>
                  ) : null}
                </td>
                <td className="max-w-64 px-3 py-2.5 align-top text-xs text-slate-700">
                  {row.events.map((event) => (
                    <code key={event} dir="ltr" className="me-1.5 inline-block">
                      {event}
                    </code>
                  ))}
                </td>
                <td className="px-3 py-2.5 align-top">
                  <StatusBadge row={row} />
                </td>
                <td className="px-3 py-2.5 align-top whitespace-nowrap text-slate-600">
                  <time dateTime={row.created_at.toISOString()}>{f.dateTime(row.created_at)}</time>
                </td>
                <td className="min-w-72 px-3 py-1.5 align-top">
                  <WebhookActions webhook={{ id: row.id, url: row.url, description: row.description, events: row.events, enabled: row.enabled }} events={EVENTS} overlapHours={overlapHours} />
                </td>
              </tr>
            ))}
          </ListTable>
        </ClientMessages>
      )}
    </ListResults>
  );
}
