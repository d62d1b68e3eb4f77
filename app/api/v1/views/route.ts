import { requireUser } from "@/lib/auth/guards";
import { json, readJson, route } from "@/lib/http/api";
import { createView } from "@/lib/views/mutations";
import { listViews, serializeView } from "@/lib/views/queries";
import { viewCreateSchema, viewResourceSchema } from "@/lib/views/schema";

export const dynamic = "force-dynamic";

/** The caller's own views and the shared ones, by name; `resource` picks one list. */
export const GET = route(async (request) => {
  const user = await requireUser();
  const resource = new URL(request.url).searchParams.get("resource");
  const views = await listViews(user, resource === null ? undefined : viewResourceSchema.parse(resource));
  return json({ data: views.map(serializeView) });
});

export const POST = route(async (request) => {
  const user = await requireUser();
  const input = viewCreateSchema.parse(await readJson(request));
  return json(serializeView(await createView(user, input)), 201);
});
