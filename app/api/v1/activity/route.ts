import { listActivity } from "@/lib/activity/queries";
import { requireUser } from "@/lib/auth/guards";
import { json, route } from "@/lib/http/api";
import { rawParams } from "@/lib/list/params";
import { activityApi } from "@/lib/openapi/operations/views";

export const dynamic = "force-dynamic";

/** The caller's bulk changes, imports, exports, merges and deletions, newest first; an administrator's `user_id` picks someone else's. */
export const GET = route(async (request) => {
  const user = await requireUser();
  const filters = activityApi.list.query.parse(rawParams(new URL(request.url).searchParams));
  return json(await listActivity(user, filters));
});
