import { requireAdmin } from "@/lib/auth/guards";
import { json, readJson, route } from "@/lib/http/api";
import { webhooksApi } from "@/lib/openapi/operations/webhooks";
import { deleteWebhook, getWebhook, serializeWebhook, updateWebhook } from "@/lib/webhooks/endpoints";
import { routeId, type IdContext } from "@/lib/validation/route-id";

export const dynamic = "force-dynamic";

const WHAT = "The webhook endpoint";

export const GET = route<IdContext>(async (_request, context) => {
  await requireAdmin();
  return json(serializeWebhook(await getWebhook(await routeId(context, WHAT))));
});

export const PATCH = route<IdContext>(async (request, context) => {
  const admin = await requireAdmin();
  const id = await routeId(context, WHAT);
  const changes = webhooksApi.update.body.parse(await readJson(request));
  return json(serializeWebhook(await updateWebhook(id, changes, admin)));
});

export const DELETE = route<IdContext>(async (_request, context) => {
  const admin = await requireAdmin();
  await deleteWebhook(await routeId(context, WHAT), admin);
  return new Response(null, { status: 204 });
});
