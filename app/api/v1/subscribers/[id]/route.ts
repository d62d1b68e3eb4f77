import { requireAdmin, requireUser } from "@/lib/auth/guards";
import { json, readJson, route } from "@/lib/http/api";
import { subscribersApi } from "@/lib/openapi/operations/subscribers";
import { deleteSubscriber, editableFields, updateSubscriber } from "@/lib/subscribers/edit";
import { getSubscriber, serializeRecord } from "@/lib/subscribers/record";
import { subscriberInputSchema } from "@/lib/subscribers/schema";
import { routeId, type IdContext } from "@/lib/validation/route-id";

export const dynamic = "force-dynamic";

const subscriberId = (context: IdContext) => routeId(context, "The subscriber");

/** 200: the subscriber, with `updated_at` (the version a PATCH names). */
export const GET = route<IdContext>(async (_request, context) => {
  const user = await requireUser();
  return json(serializeRecord(await getSubscriber(user.scope, await subscriberId(context))));
});

/** The given fields over the record, checked by the creation rules; 409 when it changed since `updated_at`. */
export const PATCH = route<IdContext>(async (request, context) => {
  const user = await requireUser();
  const id = await subscriberId(context);
  const { version, changes } = subscribersApi.update.body.parse(await readJson(request));
  const scope = user.scope;
  const current = await getSubscriber(scope, id);
  const input = subscriberInputSchema.parse({ ...editableFields(current), ...changes });
  return json(serializeRecord(await updateSubscriber(scope, id, input, version, user)));
});

/** 204: deleted (administrators). */
export const DELETE = route<IdContext>(async (_request, context) => {
  const user = await requireAdmin();
  await deleteSubscriber(user.scope, await subscriberId(context), user);
  return new Response(null, { status: 204 });
});
