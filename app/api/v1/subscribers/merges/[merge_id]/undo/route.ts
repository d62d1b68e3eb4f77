import { requireAdmin } from "@/lib/auth/guards";
import { notFound } from "@/lib/errors";
import { json, route } from "@/lib/http/api";
import { undoMerge } from "@/lib/subscribers/merge";
import { serializeRecord } from "@/lib/subscribers/record";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ merge_id: string }> };

/** 200: the survivor as it was before the merge, the merged back from the trash (administrators). */
export const POST = route<Context>(async (_request, context) => {
  const user = await requireAdmin();
  const id = (await context.params).merge_id;
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(id)) throw notFound("The merge");
  return json(serializeRecord(await undoMerge(user.scope, id, user)));
});
