import { requireAdmin } from "@/lib/auth/guards";
import { notFound } from "@/lib/errors";
import { route } from "@/lib/http/api";
import { unlinkSso } from "@/lib/users/mutations";
import { parseId } from "@/lib/validation/id";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** 204: the account is no longer linked to a single sign-on subject (already unlinked: 204 too); its sessions ended. */
export const DELETE = route<Context>(async (_request, context) => {
  const admin = await requireAdmin();
  const id = parseId((await context.params).id);
  if (id === null) throw notFound("The user");
  await unlinkSso(id, admin);
  return new Response(null, { status: 204 });
});
