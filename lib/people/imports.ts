import "server-only";
import type { Tx } from "@/lib/db/transaction";
import type { Cell } from "@/lib/imports/cells";
import { csvRows, lineOf } from "@/lib/imports/read";
import { openSource, rejectedKey, sourceKey, type ImportSource } from "@/lib/imports/source";
import { csvLines } from "@/lib/export/csv";
import { query, sql } from "@/lib/db/sql";
import { problem } from "@/lib/i18n/problem";
import { storage } from "@/lib/storage";
import { cellNames, type Markers } from "./markers";

// The person in the console's stored import files: the uploaded file (kept while the import and its
// preview are) and the rejected rows' CSV. Nothing records which import brought a subscriber in,
// so the files are read: what the access archive lists, and what an erasure rewrites or removes.

export type ImportFinding = {
  id: string;
  user_id: number;
  file_name: string;
  created_at: Date;
  status: string;
  dry_run: boolean;
  /** Lines of the uploaded file that hold the person (the header is line 1). */
  lines: number[];
  /** Lines of the rejected rows' CSV that hold them. */
  rejected_lines: number[];
};

type ImportRow = { id: string; user_id: number; file_name: string; created_at: Date; status: string; dry_run: boolean; source: ImportSource; worksheet: string | null; has_rejected: boolean };

const text = (c: Cell) => (c === null ? "" : c instanceof Date ? c.toISOString().slice(0, 10) : String(c));
const holds = (cells: readonly Cell[], m: Markers, mobiles: readonly string[]) => cells.some((c) => cellNames(text(c), m, mobiles));

async function linesOf(rows: AsyncIterable<Cell[]>, m: Markers, mobiles: readonly string[], first: number): Promise<number[]> {
  const found: number[] = [];
  let n = first;
  for await (const row of rows) {
    n++;
    if (holds(row, m, mobiles)) found.push(lineOf(row) ?? n);
  }
  return found;
}

async function sourceLines(row: ImportRow, m: Markers, mobiles: readonly string[]): Promise<number[]> {
  if (!(await storage().get(sourceKey(row.id)).then((o) => (o?.body.destroy(), o !== null)))) return [];
  const opened = await openSource(row.id, row.source, row.worksheet);
  try {
    return await linesOf(opened.rows, m, mobiles, 1);
  } finally {
    await opened.close();
  }
}

async function rejectedRows(id: string): Promise<string[][] | null> {
  const object = await storage().get(rejectedKey(id));
  if (!object) return null;
  const rows: string[][] = [];
  for await (const r of csvRows(object.body, { encoding: "utf-8", bom: 3, delimiter: "," })) rows.push(r);
  return rows;
}

/** The imports (not running) whose stored files hold the person, with the lines that do. */
export async function findInImports(m: Markers, mobiles: readonly string[]): Promise<ImportFinding[]> {
  const imports = await query<ImportRow>(sql`SELECT id, user_id, file_name, created_at, status::text AS status, dry_run, source, worksheet, has_rejected
    FROM subscriber_imports WHERE status IN ('completed', 'failed') OR dry_run ORDER BY created_at, id`);
  const found: ImportFinding[] = [];
  for (const row of imports) {
    let lines: number[] = [];
    try {
      lines = await sourceLines(row, m, mobiles);
    } catch {
      // A file the import could not read either (it failed for it) holds no row the console took in.
    }
    const rejected = row.has_rejected ? await rejectedRows(row.id) : null;
    const rejected_lines = (rejected ?? []).flatMap((r, i) => (i > 0 && holds(r, m, mobiles) ? [i + 1] : []));
    if (lines.length || rejected_lines.length) {
      found.push({ id: row.id, user_id: row.user_id, file_name: row.file_name, created_at: row.created_at, status: row.status, dry_run: row.dry_run, lines, rejected_lines });
    }
  }
  return found;
}

/** What the erasure's transaction writes of the imports: a preview whose file goes is withdrawn (its owner reads why), its shown rows emptied. */
export async function withdrawImportRows(tx: Tx, findings: readonly ImportFinding[]): Promise<void> {
  const previews = findings.filter((f) => f.lines.length && f.dry_run).map((f) => f.id);
  if (previews.length) {
    await tx.query(sql`UPDATE subscriber_imports SET status = 'failed', preview = '[]'::jsonb,
      error = ${PREVIEW_WITHDRAWN} WHERE id = ANY(${previews}::text[])`);
  }
}

/** A withdrawn preview's error: a problem key, put into words where the import is shown. */
export const PREVIEW_WITHDRAWN = problem("imports.previewWithdrawn");

/**
 * Takes the person out of the imports' files: an uploaded file holding them is removed (a
 * preview of it cannot be started again: its owner reads why), a rejected rows' CSV is written
 * again without their rows. Returns how many rows were taken out.
 */
export async function eraseFromImports(findings: readonly ImportFinding[], m: Markers, mobiles: readonly string[]): Promise<number> {
  let rows = 0;
  for (const f of findings) {
    if (f.lines.length) {
      await storage().delete([sourceKey(f.id)]);
      rows += f.lines.length;
    }
    if (f.rejected_lines.length) {
      const all = (await rejectedRows(f.id)) ?? [];
      const kept = all.filter((r, i) => i === 0 || !holds(r, m, mobiles));
      if (kept.length > 1) await storage().put(rejectedKey(f.id), [`\uFEFF${csvLines(kept)}`], { contentType: "text/csv; charset=utf-8" });
      else await storage().delete([rejectedKey(f.id)]);
      rows += all.length - kept.length;
    }
  }
  return rows;
}
