import { requireUser } from "@/lib/auth/guards";
import { notFound } from "@/lib/errors";
import { route } from "@/lib/http/api";
import { revokeToken } from "@/lib/tokens/tokens";
import { parseId } from "@/lib/validation/id";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** 204: the caller's token is revoked, at once; anyone else's token is a 404. */
export const DELETE = route<Context>(async (_request, context) => {
  const user = await requireUser();
  const id = parseId((await context.params).id);
  if (id === null) throw notFound("The token");
  await revokeToken(user, id);
  return new Response(null, { status: 204 });
});
