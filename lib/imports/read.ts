import { Transform, type Readable } from "node:stream";
import { text as streamText } from "node:stream/consumers";
import ExcelJS from "exceljs";
import yauzl from "yauzl";
import { config } from "@/lib/config";
import { problem } from "@/lib/i18n/problem";
import { fromXlsxText } from "@/lib/export/xlsx-text";
import type { Cell } from "./cells";
import { csvRecords, CsvShapeError } from "./csv";
import { ImportFileError } from "./file-error";
import type { TextEncoding } from "./sniff";
import { boundedWorkbook, checkWorkbookPart, inflated, openZip, zipEntries, type XlsxLimits } from "./xlsx-stream";

// An import's file as streamed rows of cells: CSV decoded record by record, XLSX via ExcelJS fed only bounded parts (xlsx-stream.ts).
// File errors are 400 `invalid_file`; each row carries the line a person sees it on (`lineOf`).

export { ImportFileError };

/** Excel's own row limit, header included. */
export const MAX_ROWS = 1_048_576;
/** Longer is not a subscriber's cell (a quote left open swallows the file into one). */
export const MAX_CELL = 10_000;
/** A longer CSV record (quoted line breaks included) stops the read: a quote left open, or not a sheet. */
export const MAX_RECORD = 1 << 20;
/** The most columns an import reads: its header's (a wider file is refused), and an XLSX's cells'. */
export const MAX_COLUMNS = 200;
/** The longest column name (a header cell) an import reads. */
export const MAX_HEADER = 200;
/** The most worksheets a workbook may list, and the longest name of one (Excel's own is 31 characters). */
export const MAX_WORKSHEETS = 1_000;
export const MAX_WORKSHEET_NAME = 100;

const LINE = Symbol("line");
type Lined = { [LINE]?: number };

/** The line a row of `csvRows` or `xlsxRows` is on, as a person sees it in the file (the header is line 1, or the row it is on). */
export const lineOf = (row: readonly Cell[]): number | undefined => (row as Lined)[LINE];

function lined<T extends Cell[]>(row: T, line: number): T {
  return Object.defineProperty(row, LINE, { value: line }); // not enumerable: the row still equals its cells
}

/** Refuses the file at the first row past `MAX_ROWS`, header counted as a spreadsheet counts it. */
async function* atMostMaxRows<T extends Cell[]>(rows: AsyncIterable<T>): AsyncGenerator<T> {
  let count = 0;
  for await (const row of rows) {
    if (++count > MAX_ROWS) {
      throw new ImportFileError(problem("imports.tooManyRows", { max: MAX_ROWS }));
    }
    yield row;
  }
}

/** Bytes to text, chunk by chunk (a character cut between chunks is kept for the next). */
function decoder(encoding: TextEncoding, skip: number): Transform {
  const text = new TextDecoder(encoding, { fatal: encoding === "utf-8", ignoreBOM: true });
  let toSkip = skip;
  return new Transform({
    readableObjectMode: true, // strings out, as decoded
    transform(chunk: Buffer, _enc, done) {
      let bytes = chunk;
      if (toSkip > 0) {
        const cut = Math.min(toSkip, bytes.length);
        bytes = bytes.subarray(cut);
        toSkip -= cut;
      }
      try {
        done(null, text.decode(bytes, { stream: true }));
      } catch {
        done(new ImportFileError(problem("imports.notUtf8")));
      }
    },
    flush(done) {
      try {
        done(null, text.decode());
      } catch {
        done(new ImportFileError(problem("imports.cutCharacter")));
      }
    },
  });
}

/** A CSV's rows (the header first) as text cells, each with the physical line it starts on. */
export async function* csvRows(body: Readable, options: { encoding: TextEncoding; bom: number; delimiter: string }): AsyncGenerator<string[]> {
  const text = body.pipe(decoder(options.encoding, options.bom));
  body.on("error", (e) => text.destroy(e));
  async function* records() {
    for await (const r of csvRecords(text, options.delimiter, MAX_RECORD)) yield lined(r.cells, r.line);
  }
  try {
    yield* atMostMaxRows(records());
  } catch (error) {
    if (CsvShapeError.is(error)) throw new ImportFileError(error.problem);
    throw error;
  } finally {
    body.destroy();
    text.destroy();
  }
}

/** One small part's text (the workbook's list of worksheets), null when missing; a larger one is refused. */
async function partText(zip: yauzl.ZipFile, entries: yauzl.Entry[], name: string): Promise<string | null> {
  const entry = entries.find((e) => e.fileName === name);
  if (!entry) return null;
  checkWorkbookPart(entry);
  return streamText(await inflated(zip, entry)).catch(() => {
    throw new ImportFileError(problem("imports.notXlsx"));
  });
}

const ENTITIES: Record<string, string> = { lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" };
/** A character XML does not allow (a control, a lone surrogate, U+FFFE or U+FFFF). */
const NOT_XML = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/** A worksheet's name from its attribute's text; a name with a character XML does not allow (written or referenced) refuses the file. */
function worksheetName(attribute: string): string {
  const name = attribute.replace(/&(lt|gt|quot|apos|amp|#\d+|#x[0-9a-f]+);/gi, (reference, e: string) => {
    if (e[0] !== "#") return ENTITIES[e.toLowerCase()]!;
    const code = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : "\uFFFF"; // past Unicode: refused below
  });
  if (NOT_XML.test(name)) throw new ImportFileError(problem("imports.worksheetNameCharacter"));
  if (name.length > MAX_WORKSHEET_NAME) throw new ImportFileError(problem("imports.worksheetNameLong", { max: MAX_WORKSHEET_NAME }));
  return name;
}

export type Worksheet = { name: string; file: number };
export type WorkbookInfo = { worksheets: Worksheet[]; /** Dates counted from 1904 (old Mac Excel), not 1900. */ date1904: boolean };

/** Checks an XLSX's unpacked size and workbook; returns its worksheets in order, with each part's number (`sheetN.xml`), and its date system. */
export async function inspectXlsx(path: string, maxUnpacked: number): Promise<WorkbookInfo> {
  const zip = await openZip(path);
  let workbook: string | null, rels: string | null;
  try {
    const entries = await zipEntries(zip);
    const unpacked = entries.reduce((sum, e) => sum + e.uncompressedSize, 0);
    if (unpacked > maxUnpacked) {
      throw new ImportFileError(problem("imports.unpacksTo", { size: Math.round(unpacked / 1e6), max: Math.round(maxUnpacked / 1e6) }));
    }
    workbook = await partText(zip, entries, "xl/workbook.xml");
    rels = await partText(zip, entries, "xl/_rels/workbook.xml.rels");
  } finally {
    zip.close();
  }
  if (!workbook || !rels) throw new ImportFileError(problem("imports.notWorkbook"));
  const targets = new Map<string, number>();
  for (const m of rels.matchAll(/<Relationship\b[^>]*>/g)) {
    const id = /\bId="([^"]+)"/.exec(m[0])?.[1];
    const n = /\bTarget="[^"]*worksheets\/sheet(\d+)\.xml"/.exec(m[0])?.[1];
    if (id && n) targets.set(id, Number(n));
  }
  const sheets: Worksheet[] = [];
  for (const m of workbook.matchAll(/<(?:\w+:)?sheet\b[^>]*>/g)) {
    const name = /\bname="([^"]*)"/.exec(m[0])?.[1];
    const rid = /\br:id="([^"]+)"|\b\w+:id="([^"]+)"/.exec(m[0]);
    const file = targets.get(rid?.[1] ?? rid?.[2] ?? "");
    if (name === undefined || file === undefined) continue;
    if (sheets.length === MAX_WORKSHEETS) throw new ImportFileError(problem("imports.tooManyWorksheets", { max: MAX_WORKSHEETS }));
    sheets.push({ name: worksheetName(name), file });
  }
  if (sheets.length === 0) throw new ImportFileError(problem("imports.noWorksheets"));
  const date1904 = /<(?:\w+:)?workbookPr\b[^>]*\bdate1904="(?:1|true)"/.test(workbook);
  return { worksheets: sheets, date1904 };
}

/**
 * A spreadsheet cell's value as the import reads it: cached results of formulas (never evaluated),
 * text of rich text. Text comes back with its `_xHHHH_` escapes read (ST_Xstring), which ExcelJS's
 * streaming reader leaves as they are in shared and inline strings alike: a line break Excel wrote
 * as `_x000D_`, or a name typed as `_x0041_` (stored `_x005F_x0041_`), reads as it was typed.
 */
function cellValue(value: ExcelJS.CellValue): Cell {
  const read = rawCellValue(value);
  return typeof read === "string" ? fromXlsxText(read) : read;
}

function rawCellValue(value: ExcelJS.CellValue): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean" || value instanceof Date) return value;
  if (typeof value === "object") {
    if ("result" in value || "formula" in value || "sharedFormula" in value) {
      const result = (value as { result?: unknown }).result;
      if (result === undefined || result === null || (typeof result === "object" && !(result instanceof Date))) return null;
      return result as Cell;
    }
    if ("richText" in value) return value.richText.map((r) => r.text).join("");
    if ("text" in value) return String((value as { text: unknown }).text);
    if ("error" in value) return null;
  }
  return null;
}

/** Any error reading an XLSX is the file's (it is a local copy): 400 with the reader's reason. */
function unreadable(error: unknown): unknown {
  if (ImportFileError.is(error)) return error;
  if (error && typeof error === "object" && "syscall" in error) return error; // the disk's, not the file's
  const reason = String((error as Error)?.message ?? error).replace(/\s+/g, " ").slice(0, 160);
  return new ImportFileError(problem("imports.xlsxUnreadable", { detail: reason }));
}

/** What an XLSX read may keep (xlsx-stream.ts): the configured limits, `MAX_COLUMNS` columns. */
export function xlsxLimits(): XlsxLimits {
  const c = config();
  return {
    maxUnpacked: c.IMPORT_XLSX_MAX_UNPACKED_MB * 1e6,
    maxSharedStringsBytes: c.IMPORT_XLSX_MAX_SHARED_STRINGS_MB * 1e6,
    maxSharedStrings: c.IMPORT_XLSX_MAX_SHARED_STRINGS,
    maxColumns: MAX_COLUMNS,
  };
}

/** A worksheet's non-empty rows (the header first), each with its row number, read within `limits`. */
export function xlsxRows(path: string, worksheet: Worksheet, limits: XlsxLimits = xlsxLimits()): AsyncGenerator<Cell[]> {
  return atMostMaxRows(worksheetRows(path, worksheet, limits));
}

async function* worksheetRows(path: string, worksheet: Worksheet, limits: XlsxLimits): AsyncGenerator<Cell[]> {
  const input = boundedWorkbook(path, worksheet.file, limits);
  // A refusal ends the input and ExcelJS would wait forever, so every step also rejects with it
  // (not Promise.race: each race would leave a reaction on the pending promise, one per row).
  let refused: unknown = null;
  let interrupt: ((error: unknown) => void) | null = null;
  input.once("error", (error) => {
    refused = error;
    interrupt?.(error);
  });
  const step = <T,>(next: Promise<T>): Promise<T> =>
    refused
      ? Promise.reject(refused)
      : new Promise<T>((resolve, reject) => {
          interrupt = reject;
          next.then(resolve, reject).finally(() => {
            if (interrupt === reject) interrupt = null;
          });
        });
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    worksheets: "emit",
    sharedStrings: "cache", // bounded by xlsx-stream.ts
    styles: "ignore", // not passed either: a date is its serial number (run.ts reads it in a date field)
    hyperlinks: "ignore",
    entries: "ignore",
  });
  const sheets = reader[Symbol.asyncIterator]() as AsyncIterator<ExcelJS.stream.xlsx.WorksheetReader>;
  try {
    // The input holds this worksheet's part and no other.
    const next = await step(sheets.next());
    if (!next.done) {
      const rows = (next.value as unknown as AsyncIterable<ExcelJS.Row>)[Symbol.asyncIterator]();
      let line = 0;
      for (;;) {
        const row = await step(rows.next());
        if (row.done) break;
        const r = row.value;
        line = Number.isInteger(r.number) && r.number > line ? r.number : line + 1;
        const values = r.values as ExcelJS.CellValue[]; // 1-based
        const cells: Cell[] = [];
        for (let i = 1; i < values.length; i++) cells.push(cellValue(values[i] ?? null));
        if (cells.some((c) => c !== null && c !== "")) yield lined(cells, line);
      }
    }
  } catch (error) {
    throw unreadable(error);
  } finally {
    input.destroy();
    void sheets.return?.(undefined).catch(() => {});
  }
}
