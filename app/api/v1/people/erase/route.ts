import { requireAdmin } from "@/lib/auth/guards";
import { json, readJson, route } from "@/lib/http/api";
import { personalDataApi } from "@/lib/openapi/operations/personal-data";
import { erasePerson } from "@/lib/people/erase";

export const dynamic = "force-dynamic";

/** 200: what was erased (administrators); 404 when nothing matches. Not undoable. */
export const POST = route(async (request) => {
  const user = await requireAdmin();
  // `confirm: true` is checked by the schema; the person is the rest.
  const input = personalDataApi.erase.body.parse(await readJson(request));
  return json(await erasePerson(user.scope, { email: input.email, mobile: input.mobile, subscriber_id: input.subscriber_id }, user));
});
