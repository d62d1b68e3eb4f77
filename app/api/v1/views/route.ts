import { requireUser } from "@/lib/auth/guards";
import { apiWords, json, readJson, route } from "@/lib/http/api";
import { rawParams } from "@/lib/list/params";
import { viewsApi } from "@/lib/openapi/operations/views";
import { createView } from "@/lib/views/mutations";
import { listViews, serializeView } from "@/lib/views/queries";

export const dynamic = "force-dynamic";

/** The caller's own views and the shared ones, by name, 10 a page; `resource` picks one list. */
export const GET = route(async (request) => {
  const user = await requireUser();
  const filters = viewsApi.list.query.parse(rawParams(new URL(request.url).searchParams));
  const { data, pagination } = await listViews(user, filters);
  const words = apiWords();
  return json({ data: data.map((view) => serializeView(view, words)), pagination });
});

export const POST = route(async (request) => {
  const user = await requireUser();
  const input = viewsApi.create.body.parse(await readJson(request));
  return json(serializeView(await createView(user, input), apiWords()), 201);
});
