import { requireUser } from "@/lib/auth/guards";
import { json, readJson, route } from "@/lib/http/api";
import { duplicatesApi } from "@/lib/openapi/operations/duplicates";
import { dismissDuplicates } from "@/lib/subscribers/dismissals";

export const dynamic = "force-dynamic";

/** 200: these subscribers are not duplicates of each other (anyone signed in, within their scope). */
export const POST = route(async (request) => {
  const user = await requireUser();
  const { ids } = duplicatesApi.dismiss.body.parse(await readJson(request));
  return json(await dismissDuplicates(user.scope, ids, user));
});
