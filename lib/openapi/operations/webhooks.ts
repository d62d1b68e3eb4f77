import { listAnswer } from "@/lib/list/pagination";
import { idPathParams } from "@/lib/validation/id";
import {
  deliveryPathParams,
  webhookCreateSchema,
  webhookDeliverySchema,
  webhookListQuerySchema,
  webhookSchema,
  webhookUpdateSchema,
  webhookWithSecretSchema,
} from "@/lib/webhooks/schema";
import { operation } from "../operation";

const tag = "Webhooks";

// Outgoing webhooks (docs/API.md, "Webhooks (admins)"): administrators only; an administrator's
// token reads the endpoints and their deliveries, never changes them. The secret is never read back.

const REFUSED =
  "400 `webhook_target_refused` for a target on a loopback, private, link-local or metadata address (unless WEBHOOK_ALLOW_PRIVATE=1), or an `http://` one (unless WEBHOOK_ALLOW_HTTP=1); 400 `invalid_input` for an unknown event name, no events or a URL that is not one.";

export const webhooksApi = {
  list: operation({
    method: "get", path: "/api/v1/webhooks", tag, summary: "List webhook endpoints, newest first", access: "admin", tokenScope: "read",
    description: "10 a page, like every list.",
    query: webhookListQuerySchema,
    answers: { 200: listAnswer(webhookSchema) },
  }),
  create: operation({
    method: "post", path: "/api/v1/webhooks", tag, summary: "Add a webhook endpoint", access: "admin",
    description: `The answer carries \`secret\` (\`whsec_…\`), the signing key, shown this once. ${REFUSED}`,
    body: webhookCreateSchema,
    answers: { 201: webhookWithSecretSchema },
  }),
  get: operation({
    method: "get", path: "/api/v1/webhooks/{id}", tag, summary: "Read a webhook endpoint", access: "admin", tokenScope: "read",
    params: idPathParams,
    answers: { 200: webhookSchema },
  }),
  update: operation({
    method: "patch", path: "/api/v1/webhooks/{id}", tag, summary: "Change a webhook endpoint", access: "admin",
    description: `Any of \`url\`, \`description\`, \`events\`, \`enabled\`. Turning it on again clears \`disabled_reason\`. ${REFUSED}`,
    params: idPathParams,
    body: webhookUpdateSchema,
    answers: { 200: webhookSchema },
  }),
  delete: operation({
    method: "delete", path: "/api/v1/webhooks/{id}", tag, summary: "Delete a webhook endpoint and its deliveries", access: "admin",
    params: idPathParams,
    answers: { 204: null },
  }),
  rotateSecret: operation({
    method: "post", path: "/api/v1/webhooks/{id}/rotate-secret", tag, summary: "Make a new signing secret", access: "admin",
    description: "201 with the new `secret`, shown this once; the old one still signs, beside it, until `previous_secret_until` (WEBHOOK_SECRET_OVERLAP_HOURS, default 24).",
    params: idPathParams,
    answers: { 201: webhookWithSecretSchema },
  }),
  test: operation({
    method: "post", path: "/api/v1/webhooks/{id}/test", tag, summary: "Send a test event (ping)", access: "admin",
    description: "Records a `ping` event for this endpoint alone and answers 202 with its delivery, sent in the background.",
    params: idPathParams,
    answers: { 202: webhookDeliverySchema },
  }),
  deliveries: operation({
    method: "get", path: "/api/v1/webhooks/{id}/deliveries", tag, summary: "An endpoint's deliveries, newest first", access: "admin", tokenScope: "read",
    description: "Each event sent to the endpoint and its attempts so far; 10 a page, like every list.",
    params: idPathParams,
    query: webhookListQuerySchema,
    answers: { 200: listAnswer(webhookDeliverySchema) },
  }),
  resend: operation({
    method: "post", path: "/api/v1/webhooks/{id}/deliveries/{delivery_id}/resend", tag, summary: "Send a delivery again", access: "admin",
    description: "Puts the delivery back to `pending`, to be sent at once (whatever its status); 404 when it is not this endpoint's.",
    params: deliveryPathParams,
    answers: { 200: webhookDeliverySchema },
  }),
};

