import { requireUser } from "@/lib/auth/guards";
import { json, route } from "@/lib/http/api";
import { createImport, recentImports } from "@/lib/imports/imports";
import { previewWork } from "@/lib/load/user-limit";

export const dynamic = "force-dynamic";

/** 200: the caller's recent imports (newest first). */
export const GET = route(async () => {
  const user = await requireUser();
  return json({ data: await recentImports(user.id) });
});

/**
 * Multipart: `file` (CSV or XLSX), optional `sheet_name`, `worksheet`, `mapping` (JSON
 * `{"file column": "field" | null}`) and `dry_run=true`. 202 and the import status (queued); a
 * dry run answers 200 with the counts and imports nothing. 400 for a file that cannot be imported
 * (with the reason), 413 past IMPORT_MAX_MB or the user's quota of previews, 415 when the body is
 * not multipart. An upload and its preview are heavy work of the user's, one at a time (429 beyond
 * their limit, before the body is read).
 */
export const POST = route(async (request) => {
  const user = await requireUser();
  const { status, body } = await previewWork(user.id, () => createImport(user, request));
  return json(body, status);
});
