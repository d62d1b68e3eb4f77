import { requireAdmin } from "@/lib/auth/guards";
import { notFound } from "@/lib/errors";
import { route } from "@/lib/http/api";
import { resetTwoFactor } from "@/lib/users/mutations";
import { parseId } from "@/lib/validation/id";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** 204: the user's two-factor codes are gone and their sessions ended; 409 for yourself. */
export const DELETE = route<Context>(async (_request, context) => {
  const admin = await requireAdmin();
  const id = parseId((await context.params).id);
  if (id === null) throw notFound("The user");
  await resetTwoFactor(id, admin);
  return new Response(null, { status: 204 });
});
