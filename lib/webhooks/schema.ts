import { z } from "zod";
import { problem } from "@/lib/i18n/problem";
import { pageParam } from "@/lib/list/params";
import { idSchema } from "@/lib/validation/id";
import { safeText } from "@/lib/validation/text";
import { WEBHOOK_EVENT_TYPES } from "./events";

// The one parser of an endpoint's fields, for the API and the /webhooks page's actions (the page's
// form is checked by its action). Whether the target may be reached (its scheme, loopback, private
// addresses) is the engine's check (lib/webhooks/target.ts), run by lib/webhooks/endpoints.ts after this.

const EVENTS_MESSAGE = problem("webhooks.eventsAmong", { events: WEBHOOK_EVENT_TYPES.join(", ") });
const URL_MISSING = problem("webhooks.urlMissing");
const ENABLED_MESSAGE = problem("webhooks.enabledBoolean");

const url = z
  .string({ message: URL_MISSING })
  .trim()
  .min(1, URL_MISSING)
  .max(2000, problem("webhooks.tooLong", { max: 2000 }))
  .refine((value) => URL.canParse(value), problem("webhooks.notUrl"));

const description = safeText(problem("webhooks.descriptionText")).trim().max(500, problem("webhooks.tooLong", { max: 500 }));

const events = z
  .array(z.string({ message: EVENTS_MESSAGE }), { message: problem("webhooks.eventsList") })
  .min(1, problem("webhooks.eventsMin"))
  .superRefine((names, ctx) => {
    const unknown = names.filter((name) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(name));
    if (unknown.length) {
      const values = { count: unknown.length, names: unknown.slice(0, 5).join(", "), events: WEBHOOK_EVENT_TYPES.join(", ") };
      ctx.addIssue({ code: "custom", message: problem("webhooks.eventsUnknown", values) });
    }
  })
  .transform((names) => [...new Set(names)]);

export const webhookCreateSchema = z.strictObject({
  url,
  description: description.default(""),
  events,
  enabled: z.boolean({ message: ENABLED_MESSAGE }).default(true),
});
export type WebhookCreate = z.output<typeof webhookCreateSchema>;

export const webhookUpdateSchema = z.strictObject({
  url: url.optional(),
  description: description.optional(),
  events: events.optional(),
  enabled: z.boolean({ message: ENABLED_MESSAGE }).optional(),
});
export type WebhookUpdate = z.output<typeof webhookUpdateSchema>;

export const webhookIdSchema = idSchema(problem("webhooks.endpointId"));
/** A delivery's id (a bigint in the database): digits, no leading zero, within JavaScript's exact integers. */
export const DELIVERY_ID_DIGITS = /^[1-9][0-9]{0,14}$/;
export const deliveryIdSchema = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const text = String(value);
  if (!DELIVERY_ID_DIGITS.test(text)) {
    ctx.addIssue({ code: "custom", message: problem("webhooks.deliveryId") });
    return z.NEVER;
  }
  return Number(text);
});

/** The endpoints list and a deliveries list: paged like every list. */
export const webhookListQuerySchema = z.object({ page: pageParam });

/** An endpoint as the API answers it (docs/API.md, Webhooks); never its secret. */
export const webhookSchema = z
  .object({
    id: z.number().int(),
    url: z.string(),
    description: z.string(),
    events: z.array(z.string()),
    enabled: z.boolean(),
    created_at: z.iso.datetime(),
    disabled_reason: z.string().nullable().meta({ description: "Why the console turned it off (failing for days); null when on or turned off by an administrator." }),
  })
  .meta({ id: "WebhookEndpoint" });
export type WebhookBody = z.output<typeof webhookSchema>;

/** Creation and rotation: the endpoint and its signing secret, in this answer only. */
export const webhookWithSecretSchema = webhookSchema
  .extend({
    secret: z.string().meta({ description: "`whsec_` and the base64 of 32 random bytes: shown this once." }),
    previous_secret_until: z.iso.datetime().nullable().meta({ description: "Until when the secret before it still signs (rotation); null on creation." }),
  })
  .meta({ id: "WebhookEndpointWithSecret" });

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "delivered", "failed", "dead"] as const;

/** One event for one endpoint and its attempts so far. */
export const webhookDeliverySchema = z
  .object({
    id: z.number().int(),
    event_id: z.string(),
    type: z.string(),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attempts: z.number().int(),
    response_status: z.number().int().nullable(),
    duration_ms: z.number().int().nullable(),
    next_attempt_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "WebhookDelivery" });
export type WebhookDeliveryBody = z.output<typeof webhookDeliverySchema>;

/** A resend: the delivery's id in the path. */
export const deliveryPathParams = z.object({
  id: z.string().regex(/^[1-9][0-9]{0,9}$/).meta({ description: "The endpoint's id." }),
  delivery_id: z.string().regex(DELIVERY_ID_DIGITS).meta({ description: "The delivery's id." }),
});
