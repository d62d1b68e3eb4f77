import "server-only";
import { once } from "node:events";
import { PassThrough } from "node:stream";
import { config } from "@/lib/config";
import { connection, sql, type Queryable } from "@/lib/db/sql";
import { csvLines, unneutralised } from "@/lib/export/csv";
import { storage } from "@/lib/storage";
import { batchRowMatches, LOCK_IMPORT } from "@/lib/subscribers/duplicates";
import { branchScopeOfUser, isScoped, LIVE_BRANCHES, scopeCondition, type BranchScope } from "@/lib/auth/scope";
import { branchFrom } from "@/lib/branches/where";
import { withoutUnsafeText } from "@/lib/validation/text";
import { cellText, checkRow, excelSerialDay, reasonOf, type Cell, type CheckedRow, type Lookups } from "./cells";
import { cutText, problem } from "@/lib/i18n/problem";
import { headerProblemKeys, type ImportField } from "./fields";
import { ImportFileError, lineOf, MAX_CELL } from "./read";
import { openSource, rejectedKey, type ImportSource } from "./source";
import { english, oneMessage } from "./words";
import { jobProgress } from "@/lib/jobs/progress";
import { transaction, type Tx } from "@/lib/db/transaction";

// Running an import or its dry run: rows are checked by the creation form's rules and staged, then
// one transaction under the import lock decides duplicates in SQL and inserts them all, so an
// import appears whole or not at all. Only the newest attempt may insert, so an attempt outlived
// by its retry never imports twice (docs/decisions/0013-imports-all-or-nothing.md).

export const PREVIEW_ROWS = 20;
/** The most characters of a cell a preview shows, bounding what a status carries. */
export const PREVIEW_CELL = 100;

const previewText = (text: string) => (text.length > PREVIEW_CELL ? `${text.slice(0, PREVIEW_CELL - 1)}…` : text);

/** Days from Excel's 1900 epoch to its 1904 one: added to a 1904 workbook's serial. */
const DAYS_1900_TO_1904 = 1462;

export type ImportRecord = {
  id: string;
  user_id: number;
  status: "in_queue" | "running" | "completed" | "failed";
  dry_run: boolean;
  file_name: string;
  source: ImportSource;
  worksheet: string | null;
  sheet_name: string | null;
  headers: string[];
  mapping: (ImportField | null)[];
  total_rows: number;
};

export type PreviewRow = { line: number; cells: string[]; errors: Record<number, string> };

/** The sheet of rows that name none: the file's name without its extension, under the text rule for names (what it refuses taken out). */
export function sheetOfFile(fileName: string): string {
  const base = withoutUnsafeText(fileName.replace(/\.[A-Za-z0-9]{1,5}$/, "")).replace(/\s+/g, " ");
  return withoutUnsafeText(base.slice(0, 100)) || "Import";
}

async function lookups(conn: Queryable, scope: BranchScope): Promise<Lookups> {
  const branches = new Map<string, number>();
  for (const b of await conn.query<{ id: number; name: string }>(sql`SELECT b.id, b.name ${branchFrom(scope, {})}`)) branches.set(b.name.trim().toLowerCase(), b.id);
  const countries = new Map<string, { id: number; code: string }>();
  for (const c of await conn.query<{ id: number; name: string; code: string }>(`SELECT id, name, code FROM countries`)) {
    countries.set(c.name.trim().toLowerCase(), { id: c.id, code: c.code });
    countries.set(c.code.toLowerCase(), { id: c.id, code: c.code });
  }
  return { branches, countries, scoped: isScoped(scope) };
}

type Staged = CheckedRow & { line: number; sheet: string };

async function stage(tx: Tx, id: string, attempt: number, rows: Staged[]) {
  if (rows.length === 0) return;
  const col = <K extends keyof Staged>(k: K) => rows.map((r) => r[k]);
  // Arrays of text and numbers only (an enum array is not a parameter type PGlite can send).
  await tx.query(sql`INSERT INTO import_rows (import_id, attempt, line, first_name, last_name, email, mobile, branch_id, country_id, travel_date, sheet, subscription_status, is_mandatory)
    SELECT ${id}, ${attempt}, l, f, la, e, mo, b, c, d::date, sh, st::"SubscriptionStatus", m
    FROM unnest(${col("line")}::int[], ${col("first_name")}::text[], ${col("last_name")}::text[], ${col("email")}::text[], ${col("mobile")}::text[],
      ${col("branch_id")}::int[], ${col("country_id")}::int[], ${col("travel_date")}::text[], ${col("sheet")}::text[],
      ${col("subscription_status")}::text[], ${col("is_mandatory")}::boolean[]) AS u(l, f, la, e, mo, b, c, d, sh, st, m)`);
}

/** The rejected rows' CSV, opened at the first rejected row: the original columns and `error`. */
function rejectedWriter(id: string, headers: string[]) {
  let out: PassThrough | null = null;
  let stored: Promise<number> | null = null;
  return {
    async write(cells: string[], error: string) {
      if (!out) {
        out = new PassThrough();
        stored = storage().put(rejectedKey(id), out, { contentType: "text/csv; charset=utf-8" });
        stored.catch(() => {});
        out.write(`\uFEFF${csvLines([[...headers, "error"]])}`);
      }
      if (!out.write(csvLines([[...cells, error]]))) await Promise.race([once(out, "drain"), stored]);
    },
    async end(): Promise<boolean> {
      if (!out) return false;
      out.end();
      await stored;
      return true;
    },
    abort() {
      out?.destroy(new Error("aborted"));
    },
  };
}

export type RunResult = { total: number; imported: number; rejected: number; duplicates: number } | { skipped: string };

/** Thrown inside the inserting transaction when a newer attempt owns the import (rolled back). */
class Superseded extends Error {}

/**
 * The rows were checked against the user's branches when the file was read; a scope narrowed since
 * (an administrator's change while a long file was read) fails the import rather than insert, or
 * count, rows the user no longer sees (docs/decisions/0028-branch-scope.md).
 */
async function refuseRowsOutOfScope(tx: Queryable, userId: number, id: string, attempt: number) {
  const inside = scopeCondition(await branchScopeOfUser(userId, tx), sql`r.branch_id`);
  if (!inside) return;
  const [outside] = await tx.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM import_rows r
    WHERE r.import_id = ${id} AND r.attempt = ${attempt} AND NOT coalesce(${inside}, false)`);
  if (outside && outside.n > 0) {
    throw new ImportFileError(problem("imports.branchesChanged", { count: outside.n }));
  }
}

/** An attempt's staging rows, gone with it. */
const forgetAttempt = (id: string, attempt: number) =>
  transaction((tx) => tx.query(sql`DELETE FROM import_rows WHERE import_id = ${id} AND attempt = ${attempt}`), { job: true });

/** One attempt of an import (or its dry run). Throws ImportFileError when the file cannot be imported at all. */
export async function runImport(id: string, signal?: AbortSignal): Promise<RunResult> {
  const conn = await connection();
  const [imp] = await conn.query<ImportRecord>(sql`SELECT id, user_id, status::text AS status, dry_run, file_name, source, worksheet, sheet_name, headers, mapping, total_rows
    FROM subscriber_imports WHERE id = ${id}`);
  if (!imp) return { skipped: "the import no longer exists" };
  if (!imp.dry_run && imp.status !== "in_queue" && imp.status !== "running") return { skipped: `the import is ${imp.status}` };
  // Takes this attempt's number, waiting for an earlier attempt's insert (it holds this row); whichever commits first, the other stops.
  const started = await transaction(async (tx) => {
    const [taken] = await tx.query<{ attempt: number }>(sql`UPDATE subscriber_imports SET attempt = attempt + 1, processed_rows = 0,
        status = CASE WHEN status = 'in_queue' THEN 'running'::"ImportStatus" ELSE status END
      WHERE id = ${id} AND (dry_run OR status IN ('in_queue', 'running')) RETURNING attempt`);
    // Earlier attempts' staging rows go first: this attempt starts again from the file's first row.
    if (taken) await tx.query(sql`DELETE FROM import_rows WHERE import_id = ${id} AND attempt < ${taken.attempt}`);
    return taken;
  }, { job: true });
  if (!started) return { skipped: "the import is no longer queued or running" };
  const attempt = started.attempt;

  // The user's scope as it is when the rows are checked (docs/decisions/0028-branch-scope.md).
  const known = await lookups(conn, await branchScopeOfUser(imp.user_id));
  const opened = await openSource(id, imp.source, imp.worksheet);
  const problems = headerProblemKeys(opened.headers, imp.mapping);
  if (problems.length) {
    await opened.close();
    throw new ImportFileError(oneMessage(problems));
  }
  const width = opened.headers.length;
  const byField = imp.mapping.map((f, i) => [f, i] as const).filter((e): e is readonly [ImportField, number] => e[0] !== null && e[1] < width);
  // XLSX styles are not read, so a date arrives as its serial number: converted in the date column only.
  const dateColumn = imp.source.format === "xlsx" ? byField.find(([f]) => f === "travel_date")?.[1] : undefined;
  const serialShift = opened.date1904 ? DAYS_1900_TO_1904 : 0;
  const fileSheet = sheetOfFile(imp.file_name);
  const rejected = rejectedWriter(id, opened.headers);
  const reasons: Record<string, number> = {};
  const preview: PreviewRow[] = [];
  const batchSize = config().IMPORT_BATCH_SIZE;
  let batch: Staged[] = [];
  let total = 0;
  let rejectedRows = 0;

  const flush = async () => {
    const rows = batch;
    batch = [];
    await transaction(async (tx) => {
      await stage(tx, id, attempt, rows);
      await tx.query(sql`UPDATE subscriber_imports SET processed_rows = ${total} WHERE id = ${id} AND attempt = ${attempt}`);
    }, { job: true });
    jobProgress({ processed_rows: total });
  };
  try {
    const csv = imp.source.format === "csv";
    for await (const read of opened.rows) {
      // A CSV's cells lose the apostrophes an export puts before formulas' first characters.
      const cells = csv ? read.map((c) => (typeof c === "string" ? unneutralised(c) : c)) : read;
      if (dateColumn !== undefined && typeof cells[dateColumn] === "number") cells[dateColumn] = excelSerialDay(cells[dateColumn] + serialShift) ?? cells[dateColumn];
      signal?.throwIfAborted();
      total++; // at most MAX_ROWS - 1 under the header: the readers refuse a file past MAX_ROWS
      const line = lineOf(read) ?? total + 1; // where a person sees the row in the file (the header is line 1)
      const texts = cells.map((c) => cellText(c));
      let errors: { column: number; message: string }[] = [];
      let reason = "";
      const extra = texts.slice(width).some((t) => t !== "");
      if (extra || (csv && cells.length < width)) {
        reason = problem("imports.rowMisaligned");
        errors = [{ column: -1, message: problem("imports.rowCells", { cells: cells.length, width }) }];
      } else if (texts.some((t) => t.length > MAX_CELL)) {
        reason = problem("imports.cellTooLong", { max: MAX_CELL });
        errors = [{ column: texts.findIndex((t) => t.length > MAX_CELL), message: reason }];
      } else {
        const values: Partial<Record<ImportField, Cell>> = {};
        for (const [field, i] of byField) values[field] = cells[i] ?? null;
        const checked = checkRow(values, known);
        if (checked.ok) {
          const sheet = imp.sheet_name ?? checked.row.sheet ?? fileSheet;
          batch.push({ ...checked.row, line, sheet });
          if (batch.length >= batchSize) await flush();
        } else {
          errors = checked.errors.map((e) => ({ column: byField.find(([f]) => f === e.field)?.[1] ?? -1, message: e.problem }));
          reason = reasonOf(checked.errors);
        }
      }
      if (errors.length) {
        reasons[reason] = (reasons[reason] ?? 0) + 1;
        rejectedRows++;
        await rejected.write(texts.slice(0, Math.max(width, 1)), errors.map((e) => (e.column >= 0 ? `${opened.headers[e.column]}: ${english(e.message)}` : english(e.message))).join(" "));
      }
      if (preview.length < PREVIEW_ROWS) {
        preview.push({ line, cells: texts.slice(0, width).map(previewText), errors: Object.fromEntries(errors.map((e) => [e.column, e.message])) });
      }
    }
    if (total === 0) throw new ImportFileError(problem("imports.headerOnly"));
    await flush();
    await rejected.end();
  } catch (error) {
    rejected.abort();
    await storage().delete([rejectedKey(id)]).catch(() => {});
    await forgetAttempt(id, attempt).catch(() => {});
    throw error;
  } finally {
    await opened.close();
  }

  // All at once: the duplicates decided, the rows inserted, the staging emptied, the counts kept.
  const counted = await transaction(async (tx) => {
    // A preview takes the lock shared, so it holds up no one's form; it waits only for an inserting import.
    await tx.query(
      imp.dry_run
        ? sql`SELECT 1 AS locked FROM pg_advisory_xact_lock_shared(${LOCK_IMPORT}::int, 0)`
        : sql`SELECT 1 AS locked FROM pg_advisory_xact_lock(${LOCK_IMPORT}::int, 0)`,
    );
    // Still this attempt's (the row lock keeps a newer attempt from starting before commit).
    const [current] = await tx.query<{ attempt: number; status: string }>(sql`SELECT attempt, status::text AS status FROM subscriber_imports WHERE id = ${id} FOR UPDATE`);
    if (!current || current.attempt !== attempt || (!imp.dry_run && current.status !== "running")) throw new Superseded();
    await refuseRowsOutOfScope(tx, imp.user_id, id, attempt);
    const matches = batchRowMatches(sql`r`, sql`r.line`);
    const decided = sql`SELECT m.*, m.duplicate_by_email OR m.duplicate_by_mobile AS is_duplicate FROM (
      SELECT r.*, ${matches.email} AS duplicate_by_email, ${matches.mobile} AS duplicate_by_mobile
        FROM import_rows r WHERE r.import_id = ${id} AND r.attempt = ${attempt}) m`;
    if (!imp.dry_run) {
      await tx.query(sql`INSERT INTO sheets (name) SELECT DISTINCT sheet FROM import_rows WHERE import_id = ${id} AND attempt = ${attempt} ON CONFLICT (name) DO NOTHING`);
    }
    // A branch deleted (or trashed) since the row was checked leaves the row without one.
    const [c] = await tx.query<{ n: number; d: number }>(
      imp.dry_run
        ? sql`SELECT count(*)::int AS n, count(*) FILTER (WHERE is_duplicate)::int AS d FROM (${decided}) x`
        : sql`WITH inserted AS (
          INSERT INTO subscribers (first_name, last_name, email, mobile, branch_id, country_id, travel_date, sheet_id, subscription_status, is_duplicate, duplicate_by_email, duplicate_by_mobile, is_mandatory)
          SELECT d.first_name, d.last_name, d.email, d.mobile, b.id, d.country_id, d.travel_date, sh.id, d.subscription_status, d.is_duplicate, d.duplicate_by_email, d.duplicate_by_mobile, d.is_mandatory
          FROM (${decided}) d JOIN sheets sh ON sh.name = d.sheet LEFT JOIN ${LIVE_BRANCHES} b ON b.id = d.branch_id
          ORDER BY d.line
          RETURNING is_duplicate)
        SELECT count(*)::int AS n, count(*) FILTER (WHERE is_duplicate)::int AS d FROM inserted`,
    );
    const imported = c?.n ?? 0;
    const duplicates = c?.d ?? 0;
    await tx.query(sql`DELETE FROM import_rows WHERE import_id = ${id}`);
    await tx.query(sql`UPDATE subscriber_imports SET status = 'completed', completed_at = now(), error = NULL,
        total_rows = ${total}, processed_rows = ${total}, imported_rows = ${imported}, rejected_rows = ${rejectedRows}, duplicate_rows = ${duplicates},
        reasons = ${JSON.stringify(reasons)}::jsonb, preview = ${JSON.stringify(preview)}::jsonb, has_rejected = ${rejectedRows > 0}
      WHERE id = ${id}`);
    if (!imp.dry_run) {
      await tx.audit({
        action: "import.complete",
        userId: imp.user_id,
        job: "import job",
        entity: "import",
        entityId: id,
        after: { file_name: imp.file_name, sheet_name: imp.sheet_name, total_rows: total, imported_rows: imported, rejected_rows: rejectedRows, duplicate_rows: duplicates },
      });
    }
    return { total, imported, rejected: rejectedRows, duplicates };
  }, { job: true }).catch(async (error: unknown) => {
    if (!(error instanceof Superseded)) throw error;
    await forgetAttempt(id, attempt);
    return { skipped: "a newer attempt of the import took it over" } as const;
  });
  return counted;
}

/** The import cannot go on: failed with the reason, a problem key as a rule (its staging rows dropped, the audit told in English). */
export async function markImportFailed(id: string, message: string): Promise<boolean> {
  return transaction(async (tx) => {
    const rows = await tx.query<{ user_id: number; dry_run: boolean; file_name: string }>(sql`UPDATE subscriber_imports SET status = 'failed', error = ${cutText(message, 1000)}, completed_at = now()
      WHERE id = ${id} AND status IN ('in_queue', 'running') RETURNING user_id, dry_run, file_name`);
    await tx.query(sql`DELETE FROM import_rows WHERE import_id = ${id}`);
    const row = rows[0];
    if (!row) return false;
    if (!row.dry_run) {
      await tx.audit({ action: "import.fail", userId: row.user_id, job: "import job", entity: "import", entityId: id, after: { file_name: row.file_name, error: english(message).slice(0, 500) } });
    }
    return true;
  });
}
