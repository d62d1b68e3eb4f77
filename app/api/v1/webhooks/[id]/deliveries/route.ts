import { requireAdmin } from "@/lib/auth/guards";
import { json, route } from "@/lib/http/api";
import { rawParams } from "@/lib/list/params";
import { webhooksApi } from "@/lib/openapi/operations/webhooks";
import { listDeliveries, serializeDelivery } from "@/lib/webhooks/endpoints";
import { routeId, type IdContext } from "@/lib/validation/route-id";

export const dynamic = "force-dynamic";

export const GET = route<IdContext>(async (request, context) => {
  await requireAdmin();
  const id = await routeId(context, "The webhook endpoint");
  const { page } = webhooksApi.deliveries.query.parse(rawParams(new URL(request.url).searchParams));
  const { data, pagination } = await listDeliveries(id, page);
  return json({ data: data.map(serializeDelivery), pagination });
});
