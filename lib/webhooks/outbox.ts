import { randomBytes } from "node:crypto";
import { sql } from "@/lib/db/sql";
import type { Tx } from "@/lib/db/transaction";
import type { WebhookEventType } from "./events";

export { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "./events";

// The outbox (docs/decisions/0045-webhooks.md): an event and its deliveries are rows written in the
// transaction of the change, so a rolled-back change sends nothing and a committed one is never lost.
// The delivery worker (lib/webhooks/deliver.ts) claims the pending rows; nothing else schedules them.

/** The `webhook-id`: `msg_` and 18 random bytes, base64url. */
export const newEventId = () => `msg_${randomBytes(18).toString("base64url")}`;

export type RecordOptions = {
  /** Exactly these endpoints (a `ping`: even a disabled one, the admin asked), instead of the enabled ones subscribed to the type. */
  endpointIds?: number[];
};

/**
 * Records `type` in the caller's transaction: the event and one pending delivery per enabled endpoint
 * subscribed to it (or exactly `options.endpointIds`). With no receiver it costs one indexed SELECT and
 * writes nothing; `data` may be a function, then only called when someone receives the event (null: no event after all).
 */
export async function recordEvent(
  tx: Tx,
  type: WebhookEventType,
  data: object | (() => Promise<object | null>),
  options: RecordOptions = {},
): Promise<void> {
  const receivers = options.endpointIds
    ? await tx.query<{ id: number }>(sql`SELECT id FROM webhook_endpoints WHERE id = ANY(${options.endpointIds}::int[])`)
    : await tx.query<{ id: number }>(sql`SELECT id FROM webhook_endpoints WHERE enabled AND ${type} = ANY(events)`);
  if (receivers.length === 0) return;
  const body = typeof data === "function" ? await data() : data;
  if (body === null) return;
  const ids = receivers.map((r) => r.id);
  await tx.query(sql`WITH event AS (
      INSERT INTO webhook_events (id, type, data) VALUES (${newEventId()}, ${type}, ${JSON.stringify(body)}::jsonb) RETURNING id
    )
    INSERT INTO webhook_deliveries (event_id, endpoint_id, status, next_attempt_at, updated_at)
    SELECT event.id, e, 'pending', now(), now() FROM event, unnest(${ids}::int[]) AS e`);
}

/** Puts a delivery, whatever its status, back to pending now: the worker makes a fresh attempt (same `webhook-id`). */
export async function resendDelivery(tx: Tx, deliveryId: bigint | string): Promise<void> {
  await tx.query(sql`UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), updated_at = now()
    WHERE id = ${String(deliveryId)}::bigint`);
}
