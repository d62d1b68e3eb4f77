"use server";

import { z } from "zod";
import { action } from "@/lib/actions";
import { requireUser } from "@/lib/auth/guards";
import { parseExportBody } from "@/lib/export/filters";
import { problem } from "@/lib/i18n/problem";
import { splitExportFormat } from "@/lib/export/format";
import { requestExport } from "@/lib/export/request";
import { exportStatusInWords, type ExportStatusBody } from "@/lib/export/status";
import { getProblemWords } from "@/lib/i18n/server";

// The panel's "Request export": the same guard, strict body parser and request as
// POST /api/v1/subscribers/export. While the user's export is in_queue the answer is a typed
// failure (the API's 409), never a second job; nor is an export of no rows queued.

const input = z.record(z.string(), z.string());

/** The filters, and `format` beside them as in the API's body. */
export const requestExportAction = action(requireUser, input, async (raw, user) => {
  const split = splitExportFormat(new URLSearchParams(), raw);
  if (!split.ok) return { ok: false, fieldErrors: split.problems, formError: problem("export.badFilters") };
  const filters = parseExportBody(split.value.body);
  if (!filters.ok) return { ok: false, fieldErrors: filters.problems, formError: problem("export.badFilters") };
  const status: ExportStatusBody = await requestExport(user.scope, user, filters.value, split.value.format, { refuseEmpty: true });
  // The panel shows the status as it gets it: its error in the reader's words.
  return { ok: true, data: exportStatusInWords(status, await getProblemWords()), message: problem("export.requested") };
});
