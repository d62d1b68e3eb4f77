import { randomBytes } from "node:crypto";
import { sql, type Statement } from "@/lib/db/sql";
import { transaction, type Tx } from "@/lib/db/transaction";
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
 * subscribed to it (or exactly `options.endpointIds`), in one statement that writes nothing when no
 * endpoint receives it. `data` may be a function that reads it: then only called when someone receives
 * the event (null: no event after all), after a SELECT of the receivers.
 */
export async function recordEvent(
  tx: Tx,
  type: WebhookEventType,
  data: object | (() => Promise<object | null>),
  options: RecordOptions = {},
): Promise<void> {
  const receivers = options.endpointIds
    ? sql`SELECT id FROM webhook_endpoints WHERE id = ANY(${options.endpointIds}::int[])`
    : sql`SELECT id FROM webhook_endpoints WHERE enabled AND ${type} = ANY(events)`;
  if (typeof data !== "function") {
    // Data at hand: one statement, which writes nothing when nobody receives the event.
    await tx.query(insertEvent(type, data, receivers));
    return;
  }
  const ids = (await tx.query<{ id: number }>(receivers)).map((r) => r.id);
  if (ids.length === 0) return;
  const body = await data();
  if (body === null) return;
  await tx.query(insertEvent(type, body, sql`SELECT unnest(${ids}::int[]) AS id`));
}

function insertEvent(type: WebhookEventType, data: object, receivers: Statement): Statement {
  // eslint-disable-next-line console/writes-in-transaction -- built here, sent by recordEvent's tx.query in the change's transaction.
  return sql`WITH receivers AS (${receivers}),
    event AS (
      INSERT INTO webhook_events (id, type, data) SELECT ${newEventId()}, ${type}, ${JSON.stringify(data)}::jsonb
      WHERE EXISTS (SELECT 1 FROM receivers) RETURNING id
    )
    INSERT INTO webhook_deliveries (event_id, endpoint_id, status, next_attempt_at, updated_at)
    SELECT event.id, receivers.id, 'pending', now(), now() FROM event, receivers`;
}

/** Puts a delivery, whatever its status, back to pending now: the worker makes a fresh attempt (same `webhook-id`). */
export async function resendDelivery(tx: Tx, deliveryId: bigint | string): Promise<void> {
  await tx.query(sql`UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), updated_at = now()
    WHERE id = ${String(deliveryId)}::bigint`);
}

/** An erased subscriber's events (and their deliveries) are erased with it: they hold its record. */
export async function forgetSubscribers(tx: Tx, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const list = ids.map(String);
  await tx.query(sql`DELETE FROM webhook_events WHERE (type LIKE 'subscriber.%' AND data->>'id' = ANY(${list}::text[]))
    OR (type = 'subscribers.merged' AND data->'survivor'->>'id' = ANY(${list}::text[]))`);
}

/** Events older than `days` whose deliveries are all over (delivered or dead), for the scheduled clean-up. */
export async function purgeWebhookEvents(days: number): Promise<number> {
  const rows = await transaction((tx) => tx.query<{ n: number }>(sql`WITH gone AS (
      DELETE FROM webhook_events e WHERE e.created_at < now() - make_interval(days => ${days})
        AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status IN ('pending', 'failed'))
      RETURNING 1)
    SELECT count(*)::int AS n FROM gone`), { job: true });
  return rows[0]?.n ?? 0;
}
