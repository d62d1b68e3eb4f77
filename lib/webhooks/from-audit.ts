import type { AnyAuditEntry } from "@/lib/audit/log";
import type { Tx } from "@/lib/db/transaction";
import type { WebhookEventType } from "./events";
import { forgetSubscribers, recordEvent } from "./outbox";

// Every write audits in its transaction (`tx.audit`), so the webhook events are derived there: a
// change cannot forget its event, and a rolled-back one records none. `data` is the API's own
// representation: the audit entry's when it holds it (one statement in all), else read in the same
// transaction, and only when some endpoint receives the event (the modules that read it are loaded then too).

type Json = Record<string, unknown>;
/** `data`: from the audit entry itself, which already holds the API's representation; `read`: read in the transaction, only when received. */
type Mapping = { type: WebhookEventType } & (
  | { data: (entry: AnyAuditEntry) => Json; read?: undefined }
  | { read: (tx: Tx, entry: AnyAuditEntry) => Promise<Json | null>; data?: undefined }
);

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
  // Its audit entry holds the list's row (no updated_at): the record is read.
  "subscriber.create": { type: "subscriber.created", read: (tx, e) => subscriberRecord(tx, e.entityId) },
  // The entries of these hold the record (serializeRecord) as it was before and after.
  "subscriber.update": {
    type: "subscriber.updated",
    data: (e) => ({ ...without(e.after, "duplicates_reevaluated"), changed: changedFields(e.before, e.after) }),
  },
  "subscriber.delete": { type: "subscriber.deleted", data: (e) => without(e.before) },
  "subscriber.restore": { type: "subscriber.restored", data: (e) => without(e.after) },
  // POST /api/v1/subscribers/merge's answer, and the merged (now trashed) ids.
  "subscriber.merge": {
    type: "subscribers.merged",
    data: (e) => {
      const after = (e.after ?? {}) as Json;
      return { survivor: without(after, "merge_id", "merged", "values", "duplicates_reevaluated"), merge_id: after.merge_id, merged_ids: after.merged };
    },
  },
  // Written when a bulk change completes (or fails part-way: no event): GET /api/v1/subscribers/bulk/{id}, its words in English (a machine reads them).
  "subscriber.bulk_change": {
    type: "bulk_change.completed",
    read: async (tx, e) => {
      const [{ bulkStatus, serializeBulk }, { problemsIn }] = await Promise.all([import("@/lib/subscribers/bulk"), import("@/lib/i18n/problems-in")]);
      const bulk = await bulkStatus({ id: 0, role: "admin" }, String(e.entityId), tx);
      return bulk.status === "completed" ? asJson(serializeBulk(bulk, problemsIn("en"))) : null;
    },
  },
  "import.complete": {
    type: "import.completed",
    read: async (tx, e) => {
      const { importStatus } = await import("@/lib/imports/imports");
      return asJson(await importStatus(null, String(e.entityId), tx));
    },
  },
  "branch.create": { type: "branch.created", data: (e) => without(e.after) },
  "branch.update": { type: "branch.updated", data: (e) => without(e.after) },
  "branch.delete": { type: "branch.deleted", data: (e) => without(e.before, "subscribers_detached") },
  // Counts only: never who was erased.
  "person.erase": { type: "person.erased", data: (e) => without(e.after, "subscriber_ids") },
};

/** The webhook event an audited change records, in its transaction (lib/db/transaction.ts calls this from `tx.audit`). */
export async function recordAuditedEvent(tx: Tx, entry: AnyAuditEntry): Promise<void> {
  // An erasure also erases the events that hold the person's records.
  if (entry.action === "subscriber.erase") await forgetSubscribers(tx, [Number(entry.entityId)]);
  if (entry.action === "person.erase") await forgetSubscribers(tx, (((entry.after ?? {}) as Json).subscriber_ids as number[] | undefined) ?? []);
  const mapping = MAPPINGS[entry.action];
  if (!mapping) return;
  if (mapping.data) await recordEvent(tx, mapping.type, mapping.data(entry));
  else await recordEvent(tx, mapping.type, () => mapping.read(tx, entry));
}
