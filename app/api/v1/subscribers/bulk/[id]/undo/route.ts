import { requireUser } from "@/lib/auth/guards";
import { apiWords, json, route } from "@/lib/http/api";
import { bulkApi } from "@/lib/openapi/operations/trash";
import { bulkStatus, requestUndo, serializeBulk } from "@/lib/subscribers/bulk";
import { notFound } from "@/lib/errors";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** 200: undone at once; 202: the undo runs as a job. Its author or an administrator (a deletion's: administrators). */
export const POST = route<Context>(async (_request, context) => {
  const user = await requireUser();
  const parsed = bulkApi.undo.params.safeParse(await context.params);
  if (!parsed.success) throw notFound("The bulk change");
  const result = await requestUndo(user.scope, user, parsed.data.id);
  return json(serializeBulk(await bulkStatus(user, result.id), apiWords()), result.kind === "done" ? 200 : 202);
});
