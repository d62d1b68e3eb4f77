import { requireAdmin } from "@/lib/auth/guards";
import { route } from "@/lib/http/api";
import { unlinkSso } from "@/lib/users/mutations";
import { routeId, type IdContext } from "@/lib/validation/route-id";

export const dynamic = "force-dynamic";

/** 204: the account is no longer linked to a single sign-on subject (already unlinked: 204 too); its sessions ended. */
export const DELETE = route<IdContext>(async (_request, context) => {
  const admin = await requireAdmin();
  const id = await routeId(context, "The user");
  await unlinkSso(id, admin);
  return new Response(null, { status: 204 });
});
