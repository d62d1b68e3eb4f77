import { requireAdmin } from "@/lib/auth/guards";
import { notFound } from "@/lib/errors";
import { json, readJson, route } from "@/lib/http/api";
import { usersApi } from "@/lib/openapi/operations/people";
import { updateUser } from "@/lib/users/mutations";
import { serializeUser } from "@/lib/users/queries";
import { parseId } from "@/lib/validation/id";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** 200 with the user; 409 for yourself (demote, deactivate); 422 `last_admin` when no active administrator would remain. */
export const PATCH = route<Context>(async (request, context) => {
  const admin = await requireAdmin();
  const id = parseId((await context.params).id);
  if (id === null) throw notFound("The user");
  const changes = usersApi.update.body.parse(await readJson(request));
  return json(serializeUser(await updateUser(id, changes, admin)));
});
