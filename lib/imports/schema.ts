import { z } from "zod";
import { problem } from "@/lib/i18n/problem";
import { unsafeTextProblems } from "@/lib/validation/text";
import { IMPORT_FIELDS } from "./fields";

// The text fields sent with an import, one schema for the API and the import page's forms.

const optionalText = (tooLong: string, max: number) =>
  z
    .string()
    .transform((s) => s.trim())
    .refine((s) => s.length <= max, tooLong)
    .superRefine((s, ctx) => {
      for (const message of unsafeTextProblems(s)) ctx.addIssue({ code: "custom", message });
    })
    .transform((s) => s || null)
    .optional()
    .transform((s) => s ?? null);

/** `{"file column": "field" | null}`: a JSON object whose values are field names or null (ignore). */
export const mappingSchema = z
  .string()
  .max(32 * 1024, problem("imports.mappingLong"))
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: problem("imports.mappingNotJson") });
      return z.NEVER;
    }
  })
  .pipe(
    z.record(
      z.string().max(200),
      z.union([z.enum(IMPORT_FIELDS, { message: problem("imports.mappingField", { names: IMPORT_FIELDS.join(", ") }) }), z.literal(""), z.null()]),
      { message: problem("imports.mappingNotObject") },
    ),
  );

export const importFieldsSchema = z
  .object({
    sheet_name: optionalText(problem("imports.sheetNameTooLong", { max: 100 }), 100),
    worksheet: optionalText(problem("imports.worksheetTooLong", { max: 100 }), 100),
    mapping: mappingSchema.optional(),
    dry_run: z.enum(["true", "false"], { message: problem("imports.dryRun") }).optional(),
  })
  .strict();

/** An import's status as the API answers it (docs/API.md, "import status"). */
export const importStatusSchema = z
  .object({
    id: z.string(),
    status: z.enum(["in_queue", "running", "completed", "failed"]),
    dry_run: z.boolean(),
    file_name: z.string(),
    format: z.enum(["csv", "xlsx"]),
    worksheet: z.string().nullable(),
    worksheets: z.array(z.string()),
    sheet_name: z.string(),
    chosen_sheet_name: z.string().nullable().meta({ description: "The sheet given with the import (null: each row's own, else the file's name)." }),
    headers: z.array(z.string()),
    mapping: z.record(z.string(), z.enum(IMPORT_FIELDS).nullable()),
    problems: z.array(z.string()).meta({ description: "What blocks the import." }),
    warnings: z.array(z.string()).meta({ description: "What the import leaves out without being blocked by it: columns not imported." }),
    total_rows: z.number().int(),
    processed_rows: z.number().int(),
    imported_rows: z.number().int(),
    rejected_rows: z.number().int(),
    duplicate_rows: z.number().int(),
    rejected_by_reason: z.record(z.string(), z.number().int()),
    preview: z.array(
      z.object({
        line: z.number().int(),
        cells: z.array(z.string()),
        errors: z.record(z.string(), z.string()).meta({ description: "Messages by column index; -1 for the whole row." }),
      }),
    ),
    rejected_file: z.string().nullable(),
    error: z.string().nullable(),
    created_at: z.iso.datetime(),
    completed_at: z.iso.datetime().nullable(),
  })
  .meta({ id: "ImportStatus" });

/** The multipart body of `POST /api/v1/subscribers/imports`, for the document: the fields above and the file. */
export const importUploadShape = importFieldsSchema.extend({
  file: z.string().meta({ description: "The CSV or XLSX file.", override: { type: "string", contentMediaType: "application/octet-stream" } }),
});
