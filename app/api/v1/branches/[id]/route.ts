import { requireAdmin, requireUser } from "@/lib/auth/guards";
import { deleteBranch, updateBranch } from "@/lib/branches/mutations";
import { getBranch, serializeBranch } from "@/lib/branches/queries";
import { json, readJson, route } from "@/lib/http/api";
import { notFound } from "@/lib/errors";
import { branchesApi } from "@/lib/openapi/operations/branches";
import { parseId } from "@/lib/validation/id";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** An id not in its one spelling (digits, no leading zero) names no branch: 404, as an unknown id. */
async function branchId(context: Context) {
  const id = parseId((await context.params).id);
  if (id === null) throw notFound("The branch");
  return id;
}

export const GET = route<Context>(async (_request, context) => {
  const user = await requireUser();
  return json(serializeBranch(await getBranch(user.scope, await branchId(context))));
});

export const PATCH = route<Context>(async (request, context) => {
  const user = await requireAdmin();
  const id = await branchId(context);
  const input = branchesApi.update.body.parse(await readJson(request));
  return json(serializeBranch(await updateBranch(id, input.name, user)));
});

export const DELETE = route<Context>(async (_request, context) => {
  const user = await requireAdmin();
  await deleteBranch(await branchId(context), user);
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
});
