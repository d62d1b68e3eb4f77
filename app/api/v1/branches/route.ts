import { requireAdmin, requireUser } from "@/lib/auth/guards";
import { createBranch } from "@/lib/branches/mutations";
import { listBranches, serializeBranch } from "@/lib/branches/queries";
import { json, readJson, route } from "@/lib/http/api";
import { rawParams } from "@/lib/list/params";
import { branchesApi } from "@/lib/openapi/operations/branches";

export const dynamic = "force-dynamic";

export const GET = route(async (request) => {
  const user = await requireUser();
  const filters = branchesApi.list.query.parse(rawParams(new URL(request.url).searchParams));
  const { data, pagination } = await listBranches(user.scope, filters);
  return json({ data: data.map(serializeBranch), pagination });
});

export const POST = route(async (request) => {
  const user = await requireAdmin();
  const input = branchesApi.create.body.parse(await readJson(request));
  return json(serializeBranch(await createBranch(input.name, user)), 201);
});
