import { requireUser } from "@/lib/auth/guards";
import { notFound } from "@/lib/errors";
import { json, readJson, route } from "@/lib/http/api";
import { viewsApi } from "@/lib/openapi/operations/views";
import { deleteView, updateView } from "@/lib/views/mutations";
import { getVisibleView, serializeView } from "@/lib/views/queries";
import { parseId } from "@/lib/validation/id";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

async function viewId(context: Context) {
  const id = parseId((await context.params).id);
  if (id === null) throw notFound("The view");
  return id;
}

export const GET = route<Context>(async (_request, context) => {
  const user = await requireUser();
  return json(serializeView(await getVisibleView(user, await viewId(context))));
});

export const PATCH = route<Context>(async (request, context) => {
  const user = await requireUser();
  const id = await viewId(context);
  const patch = viewsApi.update.body.parse(await readJson(request));
  return json(serializeView(await updateView(user, id, patch)));
});

export const DELETE = route<Context>(async (_request, context) => {
  const user = await requireUser();
  await deleteView(user, await viewId(context));
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
});
