import { requireAdmin } from "@/lib/auth/guards";
import { json, readJson, route } from "@/lib/http/api";
import { duplicatesApi } from "@/lib/openapi/operations/duplicates";
import { undoDismissal } from "@/lib/subscribers/dismissals";

export const dynamic = "force-dynamic";

/** 200: "not duplicates" taken back between these subscribers (administrators). */
export const POST = route(async (request) => {
  const user = await requireAdmin();
  const { ids } = duplicatesApi.undoDismiss.body.parse(await readJson(request));
  return json(await undoDismissal(user.scope, ids, user));
});
