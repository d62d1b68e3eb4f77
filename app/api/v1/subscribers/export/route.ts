import { requireUser } from "@/lib/auth/guards";
import { AppError } from "@/lib/errors";
import { parseExportBody, parseExportQuery } from "@/lib/export/filters";
import { splitExportFormat } from "@/lib/export/format";
import { requestExport } from "@/lib/export/request";
import { exportStatus, exportStatusInWords } from "@/lib/export/status";
import { apiWords, json, readJson, route } from "@/lib/http/api";

export const dynamic = "force-dynamic";

/** 200: the caller's export status (see lib/export/status.ts for the members). */
export const GET = route(async () => {
  const user = await requireUser();
  return json(exportStatusInWords(await exportStatus(user.id), apiWords()));
});

/** 202: exports the subscribers matching the body's filters or, with no body, the query's, as `format` (docs/API.md). */
export const POST = route(async (request) => {
  const user = await requireUser();
  const hasBody = request.headers.get("content-type") !== null || Number(request.headers.get("content-length") ?? 0) > 0;
  // `format` is not a filter: it may sit in the query string beside a body's filters.
  const split = splitExportFormat(new URL(request.url).searchParams, hasBody ? await readJson(request) : undefined);
  if (!split.ok) throw new AppError(400, "invalid_input", split.message, split.fields);
  const { format, query, body } = split.value;
  // Strict: a misspelt filter is never dropped into an export of everything.
  if (hasBody && query.size > 0) {
    const fields = Object.fromEntries([...new Set(query.keys())].map((key) => [key, ["Send the filters in the JSON body or in the query string, not both."]]));
    throw new AppError(400, "invalid_input", "Send the filters in the JSON body or in the query string, not both.", fields);
  }
  const filters = hasBody ? parseExportBody(body) : parseExportQuery(query);
  if (!filters.ok) throw new AppError(400, "invalid_input", filters.message, filters.fields);
  return json(exportStatusInWords(await requestExport(user.scope, user, filters.value, format), apiWords()), 202);
});
