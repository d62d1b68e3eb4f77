// The webhook events' vocabulary (docs/API.md "Webhooks"): shared by the outbox, the API and the page.
export const WEBHOOK_EVENT_TYPES = [
  "subscriber.created",
  "subscriber.updated",
  "subscriber.deleted",
  "subscriber.restored",
  "subscribers.merged",
  "bulk_change.completed",
  "import.completed",
  "export.completed",
  "branch.created",
  "branch.updated",
  "branch.deleted",
  "person.erased",
  "ping",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
