import { problem } from "@/lib/i18n/problem";
import { refusal, type ParseResult } from "@/lib/list/parse";

// The export's file format: chosen beside the filters (it is not one), stored on the export, and
// used only to pick the writer, the file's key and its download headers
// (docs/decisions/0025-xlsx-export.md).

export const EXPORT_FORMATS = ["csv", "xlsx"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

export function isExportFormat(value: unknown): value is ExportFormat {
  return typeof value === "string" && (EXPORT_FORMATS as readonly string[]).includes(value);
}

const invalid = (message: string): ParseResult<never> => refusal({ format: [message] });

/** An export request with its format taken out, so what is left is parsed as filters. */
export type SplitRequest = { format: ExportFormat; query: URLSearchParams; body: unknown };

/**
 * Takes `format` out of an export request: from the JSON body or the query string (beside a
 * body's filters too, since it is not a filter); absent means `csv`. Anything else, given twice
 * or in both places is a 400 naming `format`.
 */
export function splitExportFormat(query: URLSearchParams, body?: unknown): ParseResult<SplitRequest> {
  const inQuery = query.getAll("format");
  const rest = new URLSearchParams(query);
  rest.delete("format");
  const bodyObject = body !== null && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  const inBody = bodyObject !== null && Object.hasOwn(bodyObject, "format");
  if (inQuery.length > 1 || (inQuery.length === 1 && inBody)) return invalid(problem("export.formatOnce"));
  let format: unknown = inQuery[0] ?? "csv";
  let restBody = body;
  if (inBody) {
    const { format: given, ...others } = bodyObject!;
    format = given;
    restBody = others;
  }
  if (!isExportFormat(format)) return invalid(problem("export.formatChoice"));
  return { ok: true, value: { format, query: rest, body: restBody } };
}
