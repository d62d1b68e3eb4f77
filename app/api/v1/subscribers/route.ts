import { requireUser } from "@/lib/auth/guards";
import { json, readJson, route } from "@/lib/http/api";
import { heavyUnless } from "@/lib/load/user-limit";
import { rawParams } from "@/lib/list/params";
import { subscribersApi } from "@/lib/openapi/operations/subscribers";
import { createSubscriber } from "@/lib/subscribers/mutations";
import { isLightList, listSubscribers, serializeSubscriber } from "@/lib/subscribers/queries";

export const dynamic = "force-dynamic";

// The same parser, query and guard as the /subscribers page and its creation form.

export const GET = route(async (request) => {
  const user = await requireUser();
  const filters = subscribersApi.list.query.parse(rawParams(new URL(request.url).searchParams));
  const scope = user.scope;
  const { data, pagination } = await heavyUnless(isLightList(scope, filters), user.id, () => listSubscribers(scope, filters));
  return json({ data: data.map(serializeSubscriber), pagination });
});

/** 201 with the new subscriber; `is_duplicate` in the body is ignored (the server computes it). */
export const POST = route(async (request) => {
  const user = await requireUser();
  const input = subscribersApi.create.body.parse(await readJson(request));
  return json(serializeSubscriber(await createSubscriber(user.scope, input, user)), 201);
});
