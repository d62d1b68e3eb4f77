import { requireAdmin } from "@/lib/auth/guards";
import { notFound } from "@/lib/errors";
import { json, route } from "@/lib/http/api";
import { resendWebhookDelivery, serializeDelivery } from "@/lib/webhooks/endpoints";
import { DELIVERY_ID_DIGITS } from "@/lib/webhooks/schema";
import { routeId } from "@/lib/validation/route-id";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string; delivery_id: string }> };

/** 200 with the delivery, back to pending; another endpoint's delivery is a 404 as none. */
export const POST = route<Context>(async (_request, context) => {
  const admin = await requireAdmin();
  const id = await routeId(context, "The webhook endpoint");
  const { delivery_id } = await context.params;
  if (!DELIVERY_ID_DIGITS.test(delivery_id)) throw notFound("The delivery");
  return json(serializeDelivery(await resendWebhookDelivery(id, Number(delivery_id), admin)));
});
