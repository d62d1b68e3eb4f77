import { requireUser } from "@/lib/auth/guards";
import { json, route } from "@/lib/http/api";
import { importStatus } from "@/lib/imports/imports";

export const dynamic = "force-dynamic";

/** 200: the import's status, to its owner only (everyone else: 404). */
export const GET = route<{ params: Promise<{ id: string }> }>(async (_request, { params }) => {
  const user = await requireUser();
  const { id } = await params;
  return json(await importStatus(user.id, id));
});
