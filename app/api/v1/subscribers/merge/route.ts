import { requireAdmin } from "@/lib/auth/guards";
import { json, readJson, route } from "@/lib/http/api";
import { duplicatesApi } from "@/lib/openapi/operations/duplicates";
import { mergeSubscribers } from "@/lib/subscribers/merge";
import { serializeRecord } from "@/lib/subscribers/record";

export const dynamic = "force-dynamic";

/** 200: the survivor and the merge's id (administrators). */
export const POST = route(async (request) => {
  const user = await requireAdmin();
  const input = duplicatesApi.merge.body.parse(await readJson(request));
  const { survivor, merge_id } = await mergeSubscribers(user.scope, input, user);
  return json({ survivor: serializeRecord(survivor), merge_id });
});
