import { requireUser } from "@/lib/auth/guards";
import { route } from "@/lib/http/api";
import { revokeToken } from "@/lib/tokens/tokens";
import { routeId, type IdContext } from "@/lib/validation/route-id";

export const dynamic = "force-dynamic";

/** 204: the caller's token is revoked, at once; anyone else's token is a 404. */
export const DELETE = route<IdContext>(async (_request, context) => {
  const user = await requireUser();
  const id = await routeId(context, "The token");
  await revokeToken(user, id);
  return new Response(null, { status: 204 });
});
