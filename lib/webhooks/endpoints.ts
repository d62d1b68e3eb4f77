import "server-only";
import { randomBytes } from "node:crypto";
import type { Caller } from "@/lib/auth/principal";
import { config } from "@/lib/config";
import { prisma } from "@/lib/db/client";
import { sql } from "@/lib/db/sql";
import { transaction, type Tx } from "@/lib/db/transaction";
import { AppError } from "@/lib/errors";
import { problem } from "@/lib/i18n/problem";
import { readPage } from "@/lib/list/depth";
import { pagination, type Pagination } from "@/lib/list/pagination";
import { recordEvent, resendDelivery } from "./outbox";
import type { WebhookBody, WebhookCreate, WebhookDeliveryBody, WebhookUpdate } from "./schema";
import { checkTarget } from "./target";

// What administrators do with outgoing webhooks (docs/API.md, "Webhooks (admins)"): the /webhooks
// page's actions and /api/v1/webhooks both call these. Every change is written with its audit
// event in one transaction; the secret is never in the audit log, and only in the answer that made it.

const select = {
  id: true,
  url: true,
  description: true,
  events: true,
  enabled: true,
  created_at: true,
  disabled_reason: true,
  failing_since: true,
  previous_secret_until: true,
} as const;

export type WebhookRow = {
  id: number;
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
  created_at: Date;
  disabled_reason: string | null;
  failing_since: Date | null;
  previous_secret_until: Date | null;
};

export function serializeWebhook(row: WebhookRow): WebhookBody {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    enabled: row.enabled,
    created_at: row.created_at.toISOString(),
    disabled_reason: row.disabled_reason,
  };
}

/** What the audit log keeps of an endpoint: never its secret. */
const audited = (row: WebhookRow) => ({ url: row.url, description: row.description, events: row.events, enabled: row.enabled });

/** `whsec_` and the base64 of 32 random bytes (Standard Webhooks' form of a signing key). */
export const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

/** 400 `webhook_target_refused` when the engine would never deliver to `url` (loopback, private, http://…). */
const checkUrl = (url: string) => checkTarget(url);

const byNewest = (order: "asc" | "desc") => [{ created_at: order }, { id: order }];

/** One page of the endpoints, newest first, with the pager's numbers. */
export async function listWebhooks(page: number): Promise<{ data: WebhookRow[]; pagination: Pagination }> {
  const db = await prisma();
  const { data, total } = await readPage(
    page,
    (window) => db.webhookEndpoint.findMany({ orderBy: byNewest(window.reverse ? "asc" : "desc"), skip: window.offset, take: window.limit, select }),
    () => db.webhookEndpoint.count(),
  );
  return { data, pagination: pagination(total, page) };
}

const endpointNotFound = () => new AppError(404, "not_found", problem("webhooks.notFound"));

export async function getWebhook(id: number): Promise<WebhookRow> {
  const row = await (await prisma()).webhookEndpoint.findUnique({ where: { id }, select });
  if (!row) throw endpointNotFound();
  return row;
}

const locked = async (tx: Tx, id: number): Promise<WebhookRow> => {
  // Row-locked: two changes of one endpoint at once (a rotation and an edit) apply one after the other.
  const [hit] = await tx.query<{ id: number }>(sql`SELECT id FROM webhook_endpoints WHERE id = ${id} FOR UPDATE`);
  if (!hit) throw endpointNotFound();
  return (await tx.webhookEndpoint.findUnique({ where: { id }, select }))!;
};

export async function createWebhook(input: WebhookCreate, actor: Caller): Promise<{ row: WebhookRow; secret: string }> {
  await checkUrl(input.url);
  const secret = newSecret();
  return transaction(async (tx) => {
    const row = await tx.webhookEndpoint.create({
      data: { url: input.url, description: input.description, events: input.events, enabled: input.enabled, secret, created_by: actor.id },
      select,
    });
    await tx.audit({ action: "webhook.create", actor, entity: "webhook", entityId: row.id, after: audited(row) });
    return { row, secret };
  });
}

/** Turning an endpoint back on clears why the console turned it off, and its failing streak. */
export async function updateWebhook(id: number, changes: WebhookUpdate, actor: Caller): Promise<WebhookRow> {
  if (changes.url !== undefined) await checkUrl(changes.url);
  return transaction(async (tx) => {
    const before = await locked(tx, id);
    const reenabled = changes.enabled === true && !before.enabled;
    const row = await tx.webhookEndpoint.update({
      where: { id },
      data: {
        ...(changes.url !== undefined ? { url: changes.url } : {}),
        ...(changes.description !== undefined ? { description: changes.description } : {}),
        ...(changes.events !== undefined ? { events: changes.events } : {}),
        ...(changes.enabled !== undefined ? { enabled: changes.enabled } : {}),
        // Turned on again, or off by an administrator: no reason of the console's stands.
        ...(changes.enabled !== undefined && (reenabled || !changes.enabled) ? { disabled_reason: null, failing_since: null } : {}),
      },
      select,
    });
    await tx.audit({ action: "webhook.update", actor, entity: "webhook", entityId: id, before: audited(before), after: audited(row) });
    return row;
  });
}

/** Deletes the endpoint and its deliveries (their events stay for other endpoints). */
export async function deleteWebhook(id: number, actor: Caller): Promise<WebhookRow> {
  return transaction(async (tx) => {
    const before = await locked(tx, id);
    await tx.webhookEndpoint.delete({ where: { id } });
    await tx.audit({ action: "webhook.delete", actor, entity: "webhook", entityId: id, before: audited(before) });
    return before;
  });
}

/**
 * A new signing secret, returned this once; the one before it keeps signing (beside the new one)
 * for WEBHOOK_SECRET_OVERLAP_HOURS, so receivers switch over without missing a delivery.
 */
export async function rotateWebhookSecret(id: number, actor: Caller): Promise<{ row: WebhookRow; secret: string }> {
  const secret = newSecret();
  return transaction(async (tx) => {
    await locked(tx, id);
    const current = (await tx.webhookEndpoint.findUnique({ where: { id }, select: { secret: true } }))!;
    const until = new Date(Date.now() + config().WEBHOOK_SECRET_OVERLAP_HOURS * 3_600_000);
    const row = await tx.webhookEndpoint.update({ where: { id }, data: { secret, previous_secret: current.secret, previous_secret_until: until }, select });
    await tx.audit({ action: "webhook.rotate_secret", actor, entity: "webhook", entityId: id, after: { url: row.url, previous_secret_until: until.toISOString() } });
    return { row, secret };
  });
}

type DeliveryRow = {
  id: bigint;
  event_id: string;
  type: string;
  status: WebhookDeliveryBody["status"];
  attempts: number;
  response_status: number | null;
  response_body: string | null;
  duration_ms: number | null;
  next_attempt_at: Date | null;
  created_at: Date;
};
export type WebhookDeliveryRow = DeliveryRow;

const deliverySelect = {
  id: true,
  event_id: true,
  status: true,
  attempts: true,
  response_status: true,
  response_body: true,
  duration_ms: true,
  next_attempt_at: true,
  created_at: true,
  event: { select: { type: true } },
} as const;

type DeliverySelected = Omit<DeliveryRow, "type"> & { event: { type: string } };
const flatten = ({ event, ...row }: DeliverySelected): DeliveryRow => ({ ...row, type: event.type });

export function serializeDelivery(row: DeliveryRow): WebhookDeliveryBody {
  return {
    id: Number(row.id),
    event_id: row.event_id,
    type: row.type,
    status: row.status,
    attempts: row.attempts,
    response_status: row.response_status,
    duration_ms: row.duration_ms,
    next_attempt_at: row.next_attempt_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  };
}

/** One page of an endpoint's deliveries, newest first (404 for an unknown endpoint). */
export async function listDeliveries(endpointId: number, page: number): Promise<{ data: DeliveryRow[]; pagination: Pagination }> {
  await getWebhook(endpointId);
  const db = await prisma();
  const where = { endpoint_id: endpointId };
  const { data, total } = await readPage(
    page,
    async (window) =>
      (await db.webhookDelivery.findMany({ where, orderBy: byNewest(window.reverse ? "asc" : "desc"), skip: window.offset, take: window.limit, select: deliverySelect })).map(flatten),
    () => db.webhookDelivery.count({ where }),
  );
  return { data, pagination: pagination(total, page) };
}

/** Records a `ping` event for this endpoint alone (even when it is off: an administrator asked). */
export async function sendTestEvent(id: number, actor: Caller): Promise<DeliveryRow> {
  return transaction(async (tx) => {
    const endpoint = await locked(tx, id);
    const sentAt = new Date().toISOString();
    await recordEvent(tx, "ping", { webhook_id: id, sent_at: sentAt, sent_by: actor.email }, { endpointIds: [id] });
    const delivery = await tx.webhookDelivery.findFirst({ where: { endpoint_id: id, event: { type: "ping" } }, orderBy: [{ created_at: "desc" }, { id: "desc" }], select: deliverySelect });
    if (!delivery) throw new AppError(409, "conflict", problem("webhooks.testNotQueued"));
    await tx.audit({ action: "webhook.test", actor, entity: "webhook", entityId: id, after: { url: endpoint.url, event_id: delivery.event_id } });
    return flatten(delivery);
  });
}

/** Puts one delivery of this endpoint back to pending, to be sent at once (404 when it is not this endpoint's). */
export async function resendWebhookDelivery(endpointId: number, deliveryId: number, actor: Caller): Promise<DeliveryRow> {
  return transaction(async (tx) => {
    const endpoint = await locked(tx, endpointId);
    const found = await tx.webhookDelivery.findFirst({ where: { id: BigInt(deliveryId), endpoint_id: endpointId }, select: { id: true } });
    if (!found) throw new AppError(404, "not_found", problem("webhooks.deliveryNotFound"));
    await resendDelivery(tx, found.id);
    const delivery = (await tx.webhookDelivery.findUnique({ where: { id: found.id }, select: deliverySelect }))!;
    await tx.audit({ action: "webhook.resend", actor, entity: "webhook", entityId: endpointId, after: { url: endpoint.url, delivery_id: deliveryId, event_id: delivery.event_id } });
    return flatten(delivery);
  });
}

/** The endpoints the console turned off (failing for days), for the page's alert: a few, newest first. */
export async function webhooksTurnedOff(limit = 5): Promise<WebhookRow[]> {
  return (await prisma()).webhookEndpoint.findMany({ where: { enabled: false, disabled_reason: { not: null } }, orderBy: byNewest("desc"), take: limit, select });
}
