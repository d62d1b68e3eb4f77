import { requireUser } from "@/lib/auth/guards";
import { AppError } from "@/lib/errors";
import { parseExportBody, parseExportQuery } from "@/lib/export/filters";
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
 * 202: requests the export of the subscribers matching the list filters of the JSON body or,
 * with no body, of the query string; 400 naming any key that is not a filter, any value that is
 * not one string, and for filters in both the body and the query; 409 while the caller's
 * previous export is in_queue.
 */
export const POST = route(async (request) => {
  const user = await requireUser();
  const hasBody = request.headers.get("content-type") !== null || Number(request.headers.get("content-length") ?? 0) > 0;
  const query = new URL(request.url).searchParams;
  // Both are as strict (only filter names, one string each): a misspelt filter is never dropped
  // into an export of everything. One or the other: a query beside a body would be ignored.
  if (hasBody && query.size > 0) {
    const fields = Object.fromEntries([...new Set(query.keys())].map((key) => [key, ["Send the filters in the JSON body or in the query string, not both."]]));
    throw new AppError(400, "invalid_input", "Send the filters in the JSON body or in the query string, not both.", fields);
  }
  const filters = hasBody ? parseExportBody(await readJson(request)) : parseExportQuery(query);
  if (!filters.ok) throw new AppError(400, "invalid_input", filters.message, filters.fields);
  return json(await requestExport(user, filters.value), 202);
});
