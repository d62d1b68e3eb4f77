import { requireAdmin, requireUser } from "@/lib/auth/guards";
import { deleteBranch, updateBranch } from "@/lib/branches/mutations";
import { getBranch, serializeBranch } from "@/lib/branches/queries";
import { json, readJson, route } from "@/lib/http/api";
import { branchesApi } from "@/lib/openapi/operations/branches";
import { routeId, type IdContext } from "@/lib/validation/route-id";

export const dynamic = "force-dynamic";

const branchId = (context: IdContext) => routeId(context, "The branch");

export const GET = route<IdContext>(async (_request, context) => {
  const user = await requireUser();
  return json(serializeBranch(await getBranch(user.scope, await branchId(context))));
});

export const PATCH = route<IdContext>(async (request, context) => {
  const user = await requireAdmin();
  const id = await branchId(context);
  const input = branchesApi.update.body.parse(await readJson(request));
  return json(serializeBranch(await updateBranch(id, input.name, user)));
});

export const DELETE = route<IdContext>(async (_request, context) => {
  const user = await requireAdmin();
  await deleteBranch(await branchId(context), user);
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
});
