import { requireUser } from "@/lib/auth/guards";
import { json, route } from "@/lib/http/api";
import { importStatus } from "@/lib/imports/imports";
import { answerWords } from "@/lib/imports/thrown";

export const dynamic = "force-dynamic";

/** 200: the import's status, to its owner only (everyone else: 404); a failure's `error` in the answer's language. */
export const GET = route<{ params: Promise<{ id: string }> }>(async (_request, { params }) => {
  const user = await requireUser();
  const { id } = await params;
  return json(await importStatus(user.id, id, undefined, answerWords()));
});
