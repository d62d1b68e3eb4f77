import { requireAdmin } from "@/lib/auth/guards";
import { json, readJson, route } from "@/lib/http/api";
import { usersApi } from "@/lib/openapi/operations/people";
import { updateUser } from "@/lib/users/mutations";
import { serializeUser } from "@/lib/users/queries";
import { routeId, type IdContext } from "@/lib/validation/route-id";

export const dynamic = "force-dynamic";

/** 200 with the user; 409 for yourself (demote, deactivate); 422 `last_admin` when no active administrator would remain. */
export const PATCH = route<IdContext>(async (request, context) => {
  const admin = await requireAdmin();
  const id = await routeId(context, "The user");
  const changes = usersApi.update.body.parse(await readJson(request));
  return json(serializeUser(await updateUser(id, changes, admin)));
});
