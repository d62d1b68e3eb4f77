"use server";

import { z } from "zod";
import { action } from "@/lib/actions";
import { requireUser } from "@/lib/auth/guards";
import { problem } from "@/lib/i18n/problem";
import { IMPORT_FIELDS } from "@/lib/imports/fields";
import { asProblem } from "@/lib/imports/file-error";
import { previewAgain, startImport } from "@/lib/imports/imports";
import { importFieldsSchema } from "@/lib/imports/schema";
import { previewWork } from "@/lib/load/user-limit";

// The import page's two steps after the upload (which goes to the JSON API: a file is streamed
// there, never through a server action): preview again with another mapping, and start.

const idSchema = z.string().regex(/^[A-Za-z0-9_-]{22}$/, problem("imports.notAnImport"));

const previewSchema = z.object({
  id: idSchema,
  mapping: z.array(z.union([z.enum(IMPORT_FIELDS), z.null()])).max(500),
  worksheet: importFieldsSchema.shape.worksheet,
  sheet_name: importFieldsSchema.shape.sheet_name,
});

export const previewImportAction = action(requireUser, previewSchema, async ({ id, mapping, worksheet, sheet_name }, user) => {
  // A preview reads the whole file again: heavy work of the user's, as the upload's.
  const status = await previewWork(user.id, () => previewAgain(user, id, { mapping, worksheet, sheet_name })).catch((error: unknown) => {
    throw asProblem(error);
  });
  return { ok: true, data: { status: status.status }, message: problem("imports.previewUpdated") };
});

export const startImportAction = action(requireUser, z.object({ id: idSchema }), async ({ id }, user) => {
  await startImport(user, id);
  return { ok: true, data: undefined, message: problem("imports.importStarted") };
});
