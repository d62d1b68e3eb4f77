import { z } from "zod";
import { EXPORT_FORMATS } from "./format";

// The export status as the API and the export panel read it (docs/API.md).

const EXPORT_STATES = ["in_queue", "completed", "failed"] as const;

export const exportStatusSchema = z
  .object({
    downloadable_file: z.string().nullable().meta({ description: "Path of the newest completed file, or null while none exists." }),
    downloadable_file_status: z.enum(EXPORT_STATES).nullable().meta({ description: "State of the latest request; null when the user never requested an export." }),
    format: z.enum(EXPORT_FORMATS).meta({ description: "The latest request's file format (`csv` before any request)." }),
    fresh_download_file: z.boolean().meta({ description: "True when no file existed when the latest request was made (and before any request)." }),
    progress: z.number().int().min(0).max(100),
    total_rows: z.number().int(),
    processed_rows: z.number().int(),
    requested_at: z.iso.datetime().nullable(),
    started_at: z.iso.datetime().nullable(),
    completed_at: z.iso.datetime().nullable(),
    error: z.string().nullable(),
    filters: z.record(z.string(), z.string()).meta({ description: "The filters the latest request captured, as query strings." }),
    sort: z.string().nullable().meta({ description: "The list's sort the latest request's rows follow (`-created_at`…); null: by id." }),
    file: z
      .object({ rows: z.number().int(), completed_at: z.iso.datetime(), filename: z.string(), format: z.enum(EXPORT_FORMATS), filters: z.record(z.string(), z.string()), sort: z.string().nullable() })
      .nullable()
      .meta({ description: "The downloadable file: its row count, time, filters, sort and the name it downloads as." }),
  })
  .meta({ id: "ExportStatus" });

export type ExportStatusBody = z.output<typeof exportStatusSchema>;
