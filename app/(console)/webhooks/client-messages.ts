import type { MessageGroup } from "@/lib/i18n/catalogues";

/** What the client parts of the webhook pages read: the actions, the form and the secret shown once. */
export const WEBHOOK_CLIENT_MESSAGES: readonly MessageGroup[] = ["webhooks.actions", "webhooks.form", "webhooks.secret"];
