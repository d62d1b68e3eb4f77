import { requireUser } from "@/lib/auth/guards";
import { AppError } from "@/lib/errors";
import { parseExportBody, parseExportFilters } from "@/lib/export/filters";
import { requestExport } from "@/lib/export/request";
import { exportStatus } from "@/lib/export/status";
import { json, readJson, route } from "@/lib/http/api";

export const dynamic = "force-dynamic";

/** 200: the caller's export status (see lib/export/status.ts for the members). */
export const GET = route(async () => {
  const user = await requireUser();
  return json(await exportStatus(user.id));
});

/**
 * 202: requests the export of the subscribers matching the list filters of the JSON body (or,
 * with no body, of the query string); 400 naming any key of the body that is not a filter or
 * not a string; 409 while the caller's previous export is in_queue.
 */
export const POST = route(async (request) => {
  const user = await requireUser();
  const hasBody = request.headers.get("content-type") !== null || Number(request.headers.get("content-length") ?? 0) > 0;
  // A body is strict (only filter names, string values); a query string is read as the list reads it.
  const filters = hasBody ? parseExportBody(await readJson(request)) : parseExportFilters(new URL(request.url).searchParams);
  if (!filters.ok) throw new AppError(400, "invalid_input", filters.message, filters.fields);
  return json(await requestExport(user, filters.value), 202);
});
