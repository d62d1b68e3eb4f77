import { requireUser } from "@/lib/auth/guards";
import { json, route } from "@/lib/http/api";
import { createImport, recentImports } from "@/lib/imports/imports";
import { answerWords } from "@/lib/imports/thrown";
import { previewWork } from "@/lib/load/user-limit";

export const dynamic = "force-dynamic";

/** 200: the caller's recent imports (newest first), a failure's `error` in the answer's language. */
export const GET = route(async () => {
  const user = await requireUser();
  return json({ data: await recentImports(user.id, { errorWords: answerWords() }) });
});

/** Multipart upload of a sheet (docs/API.md); 429 past the user's limit before the body is read. */
export const POST = route(async (request) => {
  const user = await requireUser();
  const { status, body } = await previewWork(user.id, () => createImport(user, request));
  return json(body, status);
});
