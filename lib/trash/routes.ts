import "server-only";
import { requireAdmin } from "@/lib/auth/guards";
import { json, route } from "@/lib/http/api";
import { rawParams } from "@/lib/list/params";
import { trashApi } from "@/lib/openapi/operations/trash";
import { parseId } from "@/lib/validation/id";
import type { IdContext } from "@/lib/validation/route-id";
import type { TrashKind } from "./filters";
import { eraseFromTrash, restoreFromTrash } from "./manage";
import { branchNotInTrash, subscriberNotInTrash } from "./refusals";
import { listTrashedBranches, listTrashedSubscribers, serializeTrashedBranch, serializeTrashedSubscriber } from "./queries";

// The handlers of /api/v1/trash/{subscribers|branches}: one per method, for both kinds (admins).

const trashedId = async (context: IdContext, kind: TrashKind) => {
  const id = parseId((await context.params).id);
  if (id === null) throw kind === "subscribers" ? subscriberNotInTrash() : branchNotInTrash();
  return id;
};

export const listTrash = (kind: TrashKind) =>
  route(async (request) => {
    await requireAdmin();
    const op = kind === "subscribers" ? trashApi.listSubscribers : trashApi.listBranches;
    const filters = op.query.parse(rawParams(new URL(request.url).searchParams));
    if (kind === "subscribers") {
      const { data, pagination } = await listTrashedSubscribers(filters);
      return json({ data: data.map(serializeTrashedSubscriber), pagination });
    }
    const { data, pagination } = await listTrashedBranches(filters);
    return json({ data: data.map(serializeTrashedBranch), pagination });
  });

export const restoreTrashed = (kind: TrashKind) =>
  route<IdContext>(async (_request, context) => {
    const user = await requireAdmin();
    return json(await restoreFromTrash(kind, await trashedId(context, kind), user));
  });

export const eraseTrashed = (kind: TrashKind) =>
  route<IdContext>(async (_request, context) => {
    const user = await requireAdmin();
    await eraseFromTrash(kind, await trashedId(context, kind), user);
    return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
  });
