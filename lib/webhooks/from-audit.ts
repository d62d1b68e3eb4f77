import type { AnyAuditEntry } from "@/lib/audit/log";
import type { Tx } from "@/lib/db/transaction";
import type { WebhookEventType } from "./events";
import { recordEvent } from "./outbox";

// Every write audits in its transaction (`tx.audit`), so the webhook events are derived there: a
// change cannot forget its event, and a rolled-back one records none. `data` is the API's own
// representation, read in the same transaction, and only when some endpoint receives the event
// (the modules that read it are loaded then too).

type Json = Record<string, unknown>;
type Mapping = { type: WebhookEventType; data: (tx: Tx, entry: AnyAuditEntry) => Promise<Json | null> };

const without = (value: unknown, ...keys: string[]): Json =>
  Object.fromEntries(Object.entries((value ?? {}) as Json).filter(([key]) => !keys.includes(key)));

/** Dates to ISO strings, as the API's JSON has them. */
const asJson = (value: unknown): Json => JSON.parse(JSON.stringify(value)) as Json;

/** The subscriber's record as GET /api/v1/subscribers/{id} answers it (webhooks see every branch). */
async function subscriberRecord(tx: Tx, id: unknown): Promise<Json | null> {
  const [{ findSubscriber, serializeRecord }, { EVERY_BRANCH }] = await Promise.all([import("@/lib/subscribers/record"), import("@/lib/auth/scope")]);
  const row = await findSubscriber(EVERY_BRANCH, Number(id), tx);
  return row ? serializeRecord(row) : null;
}

/** The record's fields whose values differ (not its version). */
function changedFields(before: unknown, after: unknown): string[] {
  const b = (before ?? {}) as Json;
  const a = (after ?? {}) as Json;
  return Object.keys(b).filter((key) => key !== "updated_at" && key in a && JSON.stringify(b[key]) !== JSON.stringify(a[key]));
}

const MAPPINGS: Partial<Record<AnyAuditEntry["action"], Mapping>> = {
  "subscriber.create": { type: "subscriber.created", data: (tx, e) => subscriberRecord(tx, e.entityId) },
  "subscriber.update": {
    type: "subscriber.updated",
    data: async (tx, e) => {
      const record = await subscriberRecord(tx, e.entityId);
      return record && { ...record, changed: changedFields(e.before, e.after) };
    },
  },
  // Already in the trash: the record as it was, which the audit entry holds.
  "subscriber.delete": { type: "subscriber.deleted", data: async (_tx, e) => without(e.before) },
  "subscriber.restore": { type: "subscriber.restored", data: (tx, e) => subscriberRecord(tx, e.entityId) },
  // POST /api/v1/subscribers/merge's answer, and the merged (now trashed) ids.
  "subscriber.merge": {
    type: "subscribers.merged",
    data: async (tx, e) => {
      const after = (e.after ?? {}) as Json;
      const survivor = await subscriberRecord(tx, e.entityId);
      return survivor && { survivor, merge_id: after.merge_id, merged_ids: after.merged };
    },
  },
  // Written when a bulk change completes (or fails part-way: no event): GET /api/v1/subscribers/bulk/{id}.
  "subscriber.bulk_change": {
    type: "bulk_change.completed",
    data: async (tx, e) => {
      const { bulkStatus, serializeBulk } = await import("@/lib/subscribers/bulk");
      const bulk = await bulkStatus({ id: 0, role: "admin" }, String(e.entityId), tx);
      return bulk.status === "completed" ? asJson(serializeBulk(bulk)) : null;
    },
  },
  "import.complete": {
    type: "import.completed",
    data: async (tx, e) => {
      const { importStatus } = await import("@/lib/imports/imports");
      return asJson(await importStatus(null, String(e.entityId), tx));
    },
  },
  "branch.create": { type: "branch.created", data: async (_tx, e) => without(e.after) },
  "branch.update": { type: "branch.updated", data: async (_tx, e) => without(e.after) },
  "branch.delete": { type: "branch.deleted", data: async (_tx, e) => without(e.before, "subscribers_detached") },
  // Counts only: never who was erased.
  "person.erase": { type: "person.erased", data: async (_tx, e) => without(e.after, "subscriber_ids") },
};

/** The webhook event an audited change records, in its transaction (lib/db/transaction.ts calls this from `tx.audit`). */
export async function recordAuditedEvent(tx: Tx, entry: AnyAuditEntry): Promise<void> {
  const mapping = MAPPINGS[entry.action];
  if (!mapping) return;
  await recordEvent(tx, mapping.type, () => mapping.data(tx, entry));
}
