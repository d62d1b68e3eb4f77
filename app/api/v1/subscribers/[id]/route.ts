import { requireAdmin, requireUser } from "@/lib/auth/guards";
import { notFound } from "@/lib/errors";
import { json, readJson, route } from "@/lib/http/api";
import { subscribersApi } from "@/lib/openapi/operations/subscribers";
import { deleteSubscriber, editableFields, updateSubscriber } from "@/lib/subscribers/edit";
import { getSubscriber, serializeRecord } from "@/lib/subscribers/record";
import { subscriberInputSchema } from "@/lib/subscribers/schema";
import { parseId } from "@/lib/validation/id";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** An id not in its one spelling names no subscriber: 404, as an unknown id. */
async function subscriberId(context: Context) {
  const id = parseId((await context.params).id);
  if (id === null) throw notFound("The subscriber");
  return id;
}

/** 200: the subscriber, with `updated_at` (the version a PATCH names). */
export const GET = route<Context>(async (_request, context) => {
  const user = await requireUser();
  return json(serializeRecord(await getSubscriber(user.scope, await subscriberId(context))));
});

/** The given fields over the record, checked by the creation rules; 409 when it changed since `updated_at`. */
export const PATCH = route<Context>(async (request, context) => {
  const user = await requireUser();
  const id = await subscriberId(context);
  const { version, changes } = subscribersApi.update.body.parse(await readJson(request));
  const scope = user.scope;
  const current = await getSubscriber(scope, id);
  const input = subscriberInputSchema.parse({ ...editableFields(current), ...changes });
  return json(serializeRecord(await updateSubscriber(scope, id, input, version, user)));
});

/** 204: deleted (administrators). */
export const DELETE = route<Context>(async (_request, context) => {
  const user = await requireAdmin();
  await deleteSubscriber(user.scope, await subscriberId(context), user);
  return new Response(null, { status: 204 });
});
