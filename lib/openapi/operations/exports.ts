import { CONTENT_TYPES, EXPORT_FORMATS } from "@/lib/export/format";
import { exportStatusSchema } from "@/lib/export/schema";
import { jobIdPathParams } from "@/lib/jobs/ids";
import { subscriberFilterOnlySchema } from "@/lib/subscribers/filters";
import { z } from "zod";
import { operation } from "../operation";

const tag = "Export";

// The export's filters are the list's, without page and sort: lib/export/filters.ts parses them with subscriberFilterOnlySchema.
// `format` is not a filter: splitExportFormat (lib/export/format.ts) takes it out of the query or
// the body first, so the request as documented is the filters plus `format`.
const exportRequestSchema = subscriberFilterOnlySchema.safeExtend({
  format: z.enum(EXPORT_FORMATS).optional().meta({ description: "The file's format; csv when absent. It may sit in the query string beside a body's filters." }),
});

export const exportsApi = {
  status: operation({
    method: "get", path: "/api/v1/subscribers/export", tag, summary: "Read your export's status", access: "signed_in", tokenScope: "export",
    answers: { 200: exportStatusSchema },
  }),
  request: operation({
    method: "post", path: "/api/v1/subscribers/export", tag, summary: "Request an export of the subscribers matching the filters",
    access: "signed_in", tokenScope: "export",
    description:
      "The list's filters as a JSON object of strings, or in the query string of a POST without a body (not both). " +
      "`format` (`csv`, the default, or `xlsx`) in the body or the query string, once. " +
      "400 naming a key that is not a filter or a value that is not one string; 409 while your export is in the queue.",
    query: exportRequestSchema,
    body: exportRequestSchema,
    answers: { 202: exportStatusSchema },
    errors: [409],
  }),
  download: operation({
    method: "get", path: "/api/v1/exports/{id}/download", tag, summary: "Download an export's file (its owner only)", access: "signed_in", tokenScope: "export",
    description: "The `downloadable_file` path of the export status. Another user's export is a 404. CSV or XLSX, as the export's `format`. " +
      "A file withdrawn because it held erased data answers 410 `erased_data`, saying why.",
    params: jobIdPathParams,
    answers: { 200: { file: ["text/csv", CONTENT_TYPES.xlsx] } },
    errors: [410],
  }),
};
