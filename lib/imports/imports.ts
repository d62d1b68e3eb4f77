import "server-only";
import crypto from "node:crypto";
import type { z } from "zod";
import type { SessionUser } from "@/lib/auth/permissions";
import { config } from "@/lib/config";
import { connection, sql, type Queryable } from "@/lib/db/sql";
import { AppError } from "@/lib/errors";
import { isJobId, newJobId } from "@/lib/jobs/ids";
import { queue, sendJob } from "@/lib/jobs/queue";
import { storage } from "@/lib/storage";
import { problem } from "@/lib/i18n/problem";
import { headerProblemKeys, headerWarningKeys, IMPORT_FIELDS, mappingOf, remapForHeaders, unmappableHeader, type ImportField } from "./fields";
import { ImportRefusal } from "./file-error";
import { ImportFileError } from "./read";
import { markImportFailed, runImport, sheetOfFile, type ImportRecord, type PreviewRow } from "./run";
import { importFieldsSchema, type importStatusSchema } from "./schema";
import { inspectXlsxObject, openSource, rejectedKey, sourceKey, type ImportSource } from "./source";
import { receiveUpload } from "./upload";
import { transaction, type Tx } from "@/lib/db/transaction";
import { answerWords, sayable } from "./thrown";
import { english, englishReason, oneMessage, type Words } from "./words";

// The imports' API, page and actions; another user's import is the same 404 as none.

/** The API's import status (lib/imports/schema.ts), with its times as dates until they are sent. */
export type ImportStatus = Omit<z.output<typeof importStatusSchema>, "created_at" | "completed_at" | "preview"> & {
  preview: PreviewRow[];
  created_at: Date;
  completed_at: Date | null;
};

type Row = ImportRecord &
  Pick<ImportStatus, "processed_rows" | "imported_rows" | "rejected_rows" | "duplicate_rows" | "preview" | "error" | "created_at" | "completed_at"> & {
    reasons: Record<string, number>;
    has_rejected: boolean;
  };

const COLUMNS = sql`id, user_id, status::text AS status, dry_run, file_name, source, worksheet, sheet_name, headers, mapping, total_rows, processed_rows,
  imported_rows, rejected_rows, duplicate_rows, reasons, preview, has_rejected, error, created_at, completed_at`;

const importNotFound = () => new AppError(404, "not_found", problem("imports.importNotFound"));

export const rejectedPath = (id: string) => `/api/v1/subscribers/imports/${id}/rejected`;

/** An import as it is kept: its problems, warnings, cell errors, reasons and error as problem keys (lib/imports/words.ts). */
function toStatus(row: Row): ImportStatus {
  const mapping = Object.fromEntries(row.headers.map((h, i) => [h, row.mapping[i] ?? null]));
  return {
    id: row.id,
    status: row.status,
    dry_run: row.dry_run,
    file_name: row.file_name,
    format: row.source.format,
    worksheet: row.source.format === "xlsx" ? (row.worksheet ?? row.source.worksheets[0]?.name ?? null) : null,
    worksheets: row.source.format === "xlsx" ? row.source.worksheets.map((w) => w.name) : [],
    sheet_name: row.sheet_name ?? sheetOfFile(row.file_name),
    chosen_sheet_name: row.sheet_name,
    headers: row.headers,
    mapping,
    problems: headerProblemKeys(row.headers, row.mapping),
    warnings: headerWarningKeys(row.headers, row.mapping),
    total_rows: row.total_rows,
    processed_rows: row.processed_rows,
    imported_rows: row.imported_rows,
    rejected_rows: row.rejected_rows,
    duplicate_rows: row.duplicate_rows,
    rejected_by_reason: row.reasons,
    preview: row.preview,
    rejected_file: row.has_rejected && row.status === "completed" ? rejectedPath(row.id) : null,
    error: row.error,
    created_at: row.created_at,
    completed_at: row.completed_at,
  };
}

/** `userId` null: whoever started it (a webhook's event, read in the import's own transaction `q`). */
async function load(userId: number | null, id: string, q?: Queryable): Promise<Row> {
  if (!isJobId(id)) throw importNotFound();
  const conn = q ?? (await connection());
  const [row] = await conn.query<Row>(sql`SELECT ${COLUMNS} FROM subscriber_imports WHERE id = ${id} ${userId === null ? sql`` : sql`AND user_id = ${userId}`}`);
  if (!row) throw importNotFound();
  return row;
}

/** An import's status in the words of `words` (each problem key, reason and cell error put into words), its failure's `error` in `errorWords`. */
export function statusInWords(status: ImportStatus, words: Words, errorWords: Words = words): ImportStatus {
  const reasons: Record<string, number> = {};
  for (const [reason, n] of Object.entries(status.rejected_by_reason)) {
    const said = words === english ? englishReason(reason) : reason;
    reasons[said] = (reasons[said] ?? 0) + n;
  }
  return {
    ...status,
    problems: status.problems.map(words),
    warnings: status.warnings.map(words),
    rejected_by_reason: reasons,
    preview: status.preview.map((p) => ({ ...p, errors: Object.fromEntries(Object.entries(p.errors).map(([column, e]) => [column, words(e)])) })),
    error: status.error === null ? null : errorWords(status.error),
  };
}

/**
 * The API's (and its webhooks') import status: its words in English, as they always were, but a
 * failure's `error` in `errorWords`, which the API answers with (answerWords: its answer's language).
 */
export const importStatus = async (userId: number | null, id: string, q?: Queryable, errorWords: Words = english): Promise<ImportStatus> =>
  statusInWords(toStatus(await load(userId, id, q)), english, errorWords);

/** The import's page's: problem keys, put into words in the reader's language there. */
export const importAsKept = async (userId: number, id: string): Promise<ImportStatus> => toStatus(await load(userId, id));

/** The user's recent imports, newest first (dry runs that were never started are previews: left out); `errorWords` as importStatus's. */
export async function recentImports(userId: number, { limit = 10, errorWords = english }: { limit?: number; errorWords?: Words } = {}): Promise<ImportStatus[]> {
  const conn = await connection();
  const rows = await conn.query<Row>(sql`SELECT ${COLUMNS} FROM subscriber_imports WHERE user_id = ${userId} AND NOT dry_run ORDER BY created_at DESC LIMIT ${limit}`);
  return rows.map((r) => statusInWords(toStatus(r), english, errorWords));
}

/** Runs a dry run now; a file that cannot be imported answers 400 and leaves nothing behind. */
async function dryRun(id: string): Promise<void> {
  try {
    await runImport(id);
  } catch (error) {
    if (ImportFileError.is(error)) await discard(id);
    else await markImportFailed(id, problem("imports.previewNotMade"));
    throw error;
  }
}

async function discard(id: string) {
  await transaction(async (tx) => {
    await tx.query(sql`DELETE FROM subscriber_imports WHERE id = ${id}`);
    await tx.query(sql`DELETE FROM import_rows WHERE import_id = ${id}`);
  });
  await storage().delete([sourceKey(id), rejectedKey(id)]);
}

/** A preview whose mapping leaves nothing to check is made as it stands. */
const previewMade = (id: string) => transaction((tx) => tx.query(sql`UPDATE subscriber_imports SET status = 'completed', completed_at = now() WHERE id = ${id}`));

const MB = 1024 * 1024;

/** Inserts a preview unless the user's unstarted previews would pass IMPORT_PREVIEW_QUOTA_MB (413), under their lock so two uploads cannot both take the last of it (docs/decisions/0024-previews-are-heavy-and-refused-early.md). */
async function insertWithinQuota(userId: number, size: number, insert: (tx: Tx) => Promise<unknown>) {
  const quotaMb = config().IMPORT_PREVIEW_QUOTA_MB;
  await transaction(async (tx) => {
    await tx.query(sql`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended(${`import-quota:${userId}`}, 0))`);
    const [held] = await tx.query<{ bytes: number }>(sql`SELECT COALESCE(sum(file_size), 0)::float8 AS bytes FROM subscriber_imports WHERE user_id = ${userId} AND dry_run`);
    if (held!.bytes + size > quotaMb * MB) {
      const inUse = held!.bytes / MB;
      throw new AppError(
        413,
        "quota_exceeded",
        problem("imports.quotaExceeded", {
          small: inUse < 0.1 && inUse > 0 ? "yes" : "no",
          inUse,
          size: size / MB,
          quota: quotaMb,
          hours: config().IMPORT_PREVIEW_RETENTION_HOURS,
        }),
      );
    }
    await insert(tx);
  });
}

/** Sends the job and records who started what, in one transaction. */
async function enqueue(user: SessionUser, id: string, fileName: string, sheetName: string | null) {
  await queue(); // started outside the transaction: on PGlite that holds the only connection
  const jobId = crypto.randomUUID();
  await transaction(async (tx) => {
    // Not while a preview of it runs (another tab's "Update preview"): that preview would import the file beside the job.
    const started = await tx.query(sql`UPDATE subscriber_imports SET dry_run = false, status = 'in_queue', job_id = ${jobId}, processed_rows = 0, imported_rows = 0,
      duplicate_rows = 0, error = NULL, completed_at = NULL, created_at = now() WHERE id = ${id} AND status <> 'running' RETURNING id`);
    if (started.length === 0) throw new AppError(409, "busy", problem("imports.previewBusy"));
    await tx.audit({ action: "import.start", actor: user, entity: "import", entityId: id, after: { file_name: fileName, sheet_name: sheetName } });
    await sendJob(tx, { kind: "import", id, userId: user.id }, jobId);
  });
}

/** `POST /api/v1/subscribers/imports`: a dry run runs at once (200), an import is queued (202); nothing is kept of a file that cannot be imported. */
export async function createImport(user: SessionUser, request: Request): Promise<{ status: number; body: ImportStatus }> {
  const id = newJobId();
  const upload = await receiveUpload(request, id);
  try {
    const fields = importFieldsSchema.safeParse(upload.fields);
    if (!fields.success) throw fields.error;
    const { sheet_name, worksheet, mapping: given, dry_run } = fields.data;
    let source: ImportSource = upload.source;
    if (source.format === "xlsx") source = { format: "xlsx", worksheets: await inspectXlsxObject(sourceKey(id)) };
    if (worksheet !== null && source.format === "xlsx" && !source.worksheets.some((w) => w.name === worksheet)) {
      throw new AppError(400, "invalid_input", problem("imports.noWorksheetIn", { name: worksheet, names: source.worksheets.map((w) => w.name).join(", ") }));
    }
    const opened = await openSource(id, source, worksheet);
    const first = await opened.rows.next().finally(() => opened.close());
    if (first.done) throw new ImportFileError(problem("imports.headerOnly"));
    const { mapping, problems } = mappingOf(opened.headers, given ?? null);
    if (problems.length) throw new AppError(400, "invalid_mapping", sayable(problems));
    const isDry = dry_run === "true";
    if (!isDry) {
      const blocking = headerProblemKeys(opened.headers, mapping);
      if (blocking.length) throw new AppError(400, "invalid_mapping", sayable(blocking));
    }
    // A preview no mapping can mend is not kept (a multi-worksheet workbook may still be read from another sheet).
    const unmappable = source.format === "csv" || source.worksheets.length <= 1 ? unmappableHeader(opened.headers) : [];
    // Several problems travel as one problem key, put into words in the answer's language below (sayable).
    if (unmappable.length) throw new ImportFileError(oneMessage(unmappable));
    const insert = (tx: Tx) => tx.query(sql`INSERT INTO subscriber_imports (id, user_id, status, dry_run, file_name, file_size, source, worksheet, sheet_name, headers, mapping)
      VALUES (${id}, ${user.id}, ${isDry ? "running" : "in_queue"}::"ImportStatus", ${isDry}, ${upload.fileName}, ${upload.size}, ${JSON.stringify(source)}::jsonb, ${worksheet},
        ${sheet_name}, ${JSON.stringify(opened.headers)}::jsonb, ${JSON.stringify(mapping)}::jsonb)`);
    if (isDry) await insertWithinQuota(user.id, upload.size, insert);
    else await transaction(insert);
    if (isDry) {
      if (headerProblemKeys(opened.headers, mapping).length === 0) await dryRun(id);
      else await previewMade(id);
      return { status: 200, body: await importStatus(user.id, id, undefined, answerWords()) };
    }
    await enqueue(user, id, upload.fileName, sheet_name);
    return { status: 202, body: await importStatus(user.id, id, undefined, answerWords()) };
  } catch (error) {
    await discard(id).catch(() => {});
    // Its words named fields or columns: said in the answer's language here (lib/imports/thrown.ts).
    if (ImportFileError.is(error)) throw new AppError(400, "invalid_file", sayable([error.problem]));
    throw error;
  }
}

/** The page's "Update preview": a new mapping (and worksheet, sheet) for a preview, checked again. */
export async function previewAgain(
  user: SessionUser,
  id: string,
  choice: { mapping: (ImportField | null)[]; worksheet: string | null; sheet_name: string | null },
): Promise<ImportStatus> {
  const row = await load(user.id, id);
  if (!row.dry_run) throw new ImportRefusal(409, "already_started", problem("imports.mappingStarted"));
  if (row.status === "running") throw new ImportRefusal(409, "busy", problem("imports.previewBusy"));
  let headers = row.headers;
  let mapping = row.headers.map((_, i) => {
    const f = choice.mapping[i];
    return f && (IMPORT_FIELDS as readonly string[]).includes(f) ? f : null;
  });
  // The worksheet read now (none chosen yet: the first), and the one asked for (none: the same).
  const current = row.source.format === "xlsx" ? (row.worksheet ?? row.source.worksheets[0]!.name) : null;
  const worksheet = choice.worksheet ?? current;
  if (worksheet !== current) {
    if (row.source.format !== "xlsx" || !row.source.worksheets.some((w) => w.name === worksheet)) throw new ImportRefusal(400, "invalid_input", problem("imports.chooseWorksheet"));
    const opened = await openSource(id, row.source, worksheet);
    await opened.close();
    // Another worksheet: its own header, mapped afresh but for the user's choices of columns it also has.
    mapping = remapForHeaders({ headers, mapping }, opened.headers);
    headers = opened.headers;
  }
  // Still a preview no one is running: the checks above read the row before another tab could start it.
  const previewing = await transaction((tx) => tx.query(sql`UPDATE subscriber_imports SET status = 'running', worksheet = ${worksheet}, sheet_name = ${choice.sheet_name},
    headers = ${JSON.stringify(headers)}::jsonb, mapping = ${JSON.stringify(mapping)}::jsonb, total_rows = 0, processed_rows = 0, imported_rows = 0,
    rejected_rows = 0, duplicate_rows = 0, reasons = '{}', preview = '[]', has_rejected = false, error = NULL
    WHERE id = ${id} AND dry_run AND status <> 'running' RETURNING dry_run`));
  if (previewing.length === 0) {
    const now = await load(user.id, id);
    throw now.dry_run ? new ImportRefusal(409, "busy", problem("imports.previewBusy")) : new ImportRefusal(409, "already_started", problem("imports.mappingStarted"));
  }
  await storage().delete([rejectedKey(id)]);
  if (headerProblemKeys(headers, mapping).length === 0) {
    try {
      await runImport(id);
    } catch (error) {
      if (!ImportFileError.is(error)) throw error;
      await markImportFailed(id, error.problem);
    }
  } else {
    await previewMade(id);
  }
  return importStatus(user.id, id);
}

/** The page's "Start import": the previewed import, with its mapping, queued. */
export async function startImport(user: SessionUser, id: string): Promise<void> {
  const row = await load(user.id, id);
  if (!row.dry_run) throw new AppError(409, "already_started", problem("imports.alreadyStarted"));
  if (row.status !== "completed") throw new AppError(409, "not_ready", row.status === "failed" ? sayable([row.error ?? problem("imports.previewFailed")]) : problem("imports.previewNotReady"));
  const problems = headerProblemKeys(row.headers, row.mapping);
  if (problems.length) throw new AppError(400, "invalid_mapping", sayable(problems));
  await enqueue(user, id, row.file_name, row.sheet_name);
}

/** The rejected rows' CSV of the caller's own import. */
export async function rejectedFile(userId: number, id: string) {
  const row = await load(userId, id);
  if (!row.has_rejected || row.status !== "completed") throw new AppError(404, "not_found", problem("imports.rejectedNotFound"));
  const object = await storage().get(rejectedKey(id));
  if (!object) throw new AppError(404, "not_found", problem("imports.rejectedNotFound"));
  return { object, fileName: `${sheetOfFile(row.file_name).replace(/[^A-Za-z0-9 _.-]/g, "_")}-rejected.csv` };
}
