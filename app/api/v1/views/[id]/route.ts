import { requireUser } from "@/lib/auth/guards";
import { apiWords, json, readJson, route } from "@/lib/http/api";
import { viewsApi } from "@/lib/openapi/operations/views";
import { deleteView, updateView } from "@/lib/views/mutations";
import { getVisibleView, serializeView } from "@/lib/views/queries";
import { routeId, type IdContext } from "@/lib/validation/route-id";

export const dynamic = "force-dynamic";

const viewId = (context: IdContext) => routeId(context, "The view");

export const GET = route<IdContext>(async (_request, context) => {
  const user = await requireUser();
  return json(serializeView(await getVisibleView(user, await viewId(context)), apiWords()));
});

export const PATCH = route<IdContext>(async (request, context) => {
  const user = await requireUser();
  const id = await viewId(context);
  const patch = viewsApi.update.body.parse(await readJson(request));
  return json(serializeView(await updateView(user, id, patch), apiWords()));
});

export const DELETE = route<IdContext>(async (_request, context) => {
  const user = await requireUser();
  await deleteView(user, await viewId(context));
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
});
