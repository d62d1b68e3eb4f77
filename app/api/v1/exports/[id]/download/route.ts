import { requireUser } from "@/lib/auth/guards";
import { downloadResponse } from "@/lib/export/download";
import { route } from "@/lib/http/api";

export const dynamic = "force-dynamic";

/** The export's file, to its owner only (everyone else: 404); the `downloadable_file` path. */
export const GET = route<{ params: Promise<{ id: string }> }>(async (_request, { params }) => {
  const user = await requireUser();
  const { id } = await params;
  return downloadResponse(user, id);
});
