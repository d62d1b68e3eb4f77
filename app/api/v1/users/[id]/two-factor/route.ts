import { requireAdmin } from "@/lib/auth/guards";
import { route } from "@/lib/http/api";
import { resetTwoFactor } from "@/lib/users/mutations";
import { routeId, type IdContext } from "@/lib/validation/route-id";

export const dynamic = "force-dynamic";

/** 204: the user's two-factor codes are gone and their sessions ended; 409 for yourself. */
export const DELETE = route<IdContext>(async (_request, context) => {
  const admin = await requireAdmin();
  const id = await routeId(context, "The user");
  await resetTwoFactor(id, admin);
  return new Response(null, { status: 204 });
});
