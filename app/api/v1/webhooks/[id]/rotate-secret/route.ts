import { requireAdmin } from "@/lib/auth/guards";
import { json, route } from "@/lib/http/api";
import { rotateWebhookSecret, serializeWebhook } from "@/lib/webhooks/endpoints";
import { routeId, type IdContext } from "@/lib/validation/route-id";

export const dynamic = "force-dynamic";

/** 201 with the new `secret`, shown this once; the old one still signs until `previous_secret_until`. */
export const POST = route<IdContext>(async (_request, context) => {
  const admin = await requireAdmin();
  const { row, secret } = await rotateWebhookSecret(await routeId(context, "The webhook endpoint"), admin);
  return json({ ...serializeWebhook(row), secret, previous_secret_until: row.previous_secret_until?.toISOString() ?? null }, 201);
});
