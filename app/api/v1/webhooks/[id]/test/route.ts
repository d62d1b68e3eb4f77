import { requireAdmin } from "@/lib/auth/guards";
import { json, route } from "@/lib/http/api";
import { sendTestEvent, serializeDelivery } from "@/lib/webhooks/endpoints";
import { routeId, type IdContext } from "@/lib/validation/route-id";

export const dynamic = "force-dynamic";

/** 202 with the `ping` event's delivery, sent in the background. */
export const POST = route<IdContext>(async (_request, context) => {
  const admin = await requireAdmin();
  return json(serializeDelivery(await sendTestEvent(await routeId(context, "The webhook endpoint"), admin)), 202);
});
