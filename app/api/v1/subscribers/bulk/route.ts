import { requireUser } from "@/lib/auth/guards";
import { apiWords, json, readJson, route } from "@/lib/http/api";
import { bulkApi } from "@/lib/openapi/operations/trash";
import { bulkStatus, requestBulkChange, serializeBulk } from "@/lib/subscribers/bulk";

export const dynamic = "force-dynamic";

/** 200: the finished change (it ran at once); 202: it runs as a job. The page's own path (lib/subscribers/bulk.ts). */
export const POST = route(async (request) => {
  const user = await requireUser();
  const { target, change } = bulkApi.request.body.parse(await readJson(request));
  const result = await requestBulkChange(user.scope, user, target, change);
  return json(serializeBulk(await bulkStatus(user, result.id), apiWords()), result.kind === "done" ? 200 : 202);
});
