import { requireUser } from "@/lib/auth/guards";
import { apiWords, json, route } from "@/lib/http/api";
import { bulkApi } from "@/lib/openapi/operations/trash";
import { bulkStatus, serializeBulk } from "@/lib/subscribers/bulk";
import { notFound } from "@/lib/errors";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** 200: the bulk change, to its author or an administrator (anyone else: 404). */
export const GET = route<Context>(async (_request, context) => {
  const user = await requireUser();
  const parsed = bulkApi.get.params.safeParse(await context.params);
  if (!parsed.success) throw notFound("The bulk change");
  return json(serializeBulk(await bulkStatus(user, parsed.data.id), apiWords()));
});
