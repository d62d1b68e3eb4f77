import { z } from "zod";
import { unsafeTextProblems } from "@/lib/validation/text";
import { IMPORT_FIELDS } from "./fields";

// The text fields sent with an import, one schema for the API and the import page's forms.

const optionalText = (label: string, max: number) =>
  z
    .string()
    .transform((s) => s.trim())
    .refine((s) => s.length <= max, `${label} must be at most ${max} characters.`)
    .superRefine((s, ctx) => {
      for (const message of unsafeTextProblems(s)) ctx.addIssue({ code: "custom", message });
    })
    .transform((s) => s || null)
    .optional()
    .transform((s) => s ?? null);

/** `{"file column": "field" | null}`: a JSON object whose values are field names or null (ignore). */
export const mappingSchema = z
  .string()
  .max(32 * 1024, "The mapping is too long.")
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: 'The mapping must be JSON: {"file column": "field", …}.' });
      return z.NEVER;
    }
  })
  .pipe(
    z.record(
      z.string().max(200),
      z.union([z.enum(IMPORT_FIELDS, { message: `Map a column to one of: ${IMPORT_FIELDS.join(", ")}; or null to ignore it.` }), z.literal(""), z.null()]),
      { message: 'The mapping must be a JSON object: {"file column": "field", …}.' },
    ),
  );

export const importFieldsSchema = z
  .object({
    sheet_name: optionalText("The sheet name", 100),
    worksheet: optionalText("The worksheet", 100),
    mapping: mappingSchema.optional(),
    dry_run: z.enum(["true", "false"], { message: "dry_run must be true or false." }).optional(),
  })
  .strict();
export type ImportFields = z.output<typeof importFieldsSchema>;
