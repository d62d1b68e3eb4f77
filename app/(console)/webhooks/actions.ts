"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions";
import { requireAdmin } from "@/lib/auth/guards";
import { config } from "@/lib/config";
import { problem } from "@/lib/i18n/problem";
import { createWebhook, deleteWebhook, resendWebhookDelivery, rotateWebhookSecret, sendTestEvent, updateWebhook } from "@/lib/webhooks/endpoints";
import { deliveryIdSchema, webhookCreateSchema, webhookIdSchema, webhookUpdateSchema } from "@/lib/webhooks/schema";

// Administrators only: each action checks the role itself (requireAdmin), whatever the page shows.

const byId = z.object({ id: webhookIdSchema });
const changed = (id?: number) => {
  revalidatePath("/webhooks");
  if (id) revalidatePath(`/webhooks/${id}`);
};

/** The secret is in this answer only: the page shows it once. */
export const createWebhookAction = action(requireAdmin, webhookCreateSchema, async (input, admin) => {
  const { row, secret } = await createWebhook(input, admin);
  changed();
  return { ok: true, data: { id: row.id, url: row.url, secret }, message: problem("webhooks.added") };
});

export const updateWebhookAction = action(requireAdmin, webhookUpdateSchema.extend({ id: webhookIdSchema }), async ({ id, ...changes }, admin) => {
  const row = await updateWebhook(id, changes, admin);
  changed(id);
  const message =
    changes.enabled === undefined || Object.keys(changes).length > 1
      ? problem("webhooks.saved")
      : problem(changes.enabled ? "webhooks.turnedOn" : "webhooks.turnedOff", { url: row.url });
  return { ok: true, data: undefined, message };
});

export const deleteWebhookAction = action(requireAdmin, byId, async ({ id }, admin) => {
  const row = await deleteWebhook(id, admin);
  changed(id);
  return { ok: true, data: undefined, message: problem("webhooks.deleted", { url: row.url }) };
});

export const rotateWebhookSecretAction = action(requireAdmin, byId, async ({ id }, admin) => {
  const { row, secret } = await rotateWebhookSecret(id, admin);
  changed(id);
  return { ok: true, data: { url: row.url, secret, hours: config().WEBHOOK_SECRET_OVERLAP_HOURS }, message: problem("webhooks.secretMade") };
});

export const sendTestWebhookAction = action(requireAdmin, byId, async ({ id }, admin) => {
  await sendTestEvent(id, admin);
  changed(id);
  return { ok: true, data: undefined, message: problem("webhooks.testQueued") };
});

export const resendDeliveryAction = action(requireAdmin, z.object({ id: webhookIdSchema, delivery_id: deliveryIdSchema }), async ({ id, delivery_id }, admin) => {
  await resendWebhookDelivery(id, delivery_id, admin);
  changed(id);
  return { ok: true, data: undefined, message: problem("webhooks.resendQueued") };
});
