import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { config } from "@/lib/config";
import { storage } from "@/lib/storage";
import { problem } from "@/lib/i18n/problem";
import type { Cell } from "./cells";
import { csvRows, ImportFileError, inspectXlsx, MAX_COLUMNS, MAX_HEADER, xlsxRows, type Worksheet } from "./read";
import type { TextEncoding } from "./sniff";

// An import's file in storage and how to read it: every reader opens the stored object, so the
// preview, the job and a retry on another machine read the same bytes the same way.

export type ImportSource =
  | { format: "csv"; encoding: TextEncoding; bom: number; delimiter: string }
  | { format: "xlsx"; worksheets: Worksheet[] };

export const sourceKey = (id: string) => `imports/${id}.source`;
export const rejectedKey = (id: string) => `imports/${id}.rejected.csv`;

export type OpenedSource = {
  headers: string[];
  /** An XLSX whose dates count from 1904 (a date is its serial number: see read.ts). */
  date1904: boolean;
  /** The rows after the header, as cells. */
  rows: AsyncGenerator<Cell[]>;
  close(): Promise<void>;
};

/** Copies the stored object to a temporary file (an XLSX is read by random access); the caller removes its folder. */
async function toTempFile(key: string): Promise<string> {
  const object = await storage().get(key);
  if (!object) throw new ImportFileError(problem("imports.fileGone"));
  let dir: string;
  try {
    dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "console-import-"));
  } catch (error) {
    object.body.destroy();
    throw error;
  }
  const file = path.join(dir, "source.xlsx");
  try {
    await pipeline(object.body, fs.createWriteStream(file));
  } catch (error) {
    // The storage failed mid-copy (or the disk filled): nothing of the copy stays behind.
    await fs.promises.rm(dir, { recursive: true, force: true });
    throw error;
  }
  return file;
}

/** The worksheets of a stored XLSX (after its zip-bomb check). */
export async function inspectXlsxObject(key: string): Promise<Worksheet[]> {
  const file = await toTempFile(key);
  try {
    return (await inspectXlsx(file, config().IMPORT_XLSX_MAX_UNPACKED_MB * 1e6)).worksheets;
  } finally {
    await fs.promises.rm(path.dirname(file), { recursive: true, force: true });
  }
}

const headerText = (cells: Cell[]) => cells.map((c) => (c === null ? "" : c instanceof Date ? c.toISOString().slice(0, 10) : String(c).trim()));

/** A header an import reads: at most MAX_COLUMNS columns, each name at most MAX_HEADER characters (what a status and its page carry). */
function checkHeader(headers: string[]) {
  if (headers.length > MAX_COLUMNS) {
    throw new ImportFileError(problem("imports.tooManyColumns", { count: headers.length, max: MAX_COLUMNS }));
  }
  const long = headers.findIndex((h) => h.length > MAX_HEADER);
  if (long >= 0) {
    throw new ImportFileError(problem("imports.headerNameLong", { number: long + 1, max: MAX_HEADER }));
  }
}

/** Opens an import's file: its header row read, its rows to follow. */
export async function openSource(id: string, source: ImportSource, worksheet: string | null): Promise<OpenedSource> {
  let rows: AsyncGenerator<Cell[]>;
  let date1904 = false;
  let cleanup = async () => {};
  if (source.format === "csv") {
    const object = await storage().get(sourceKey(id));
    if (!object) throw new ImportFileError(problem("imports.fileGone"));
    rows = csvRows(object.body, source);
  } else {
    const file = await toTempFile(sourceKey(id));
    cleanup = () => fs.promises.rm(path.dirname(file), { recursive: true, force: true });
    try {
      const workbook = await inspectXlsx(file, config().IMPORT_XLSX_MAX_UNPACKED_MB * 1e6);
      const sheets = workbook.worksheets;
      date1904 = workbook.date1904;
      const chosen = worksheet === null ? sheets[0]! : sheets.find((s) => s.name === worksheet);
      if (!chosen) throw new ImportFileError(problem("imports.noWorksheetNamed", { name: worksheet!.slice(0, 60) }));
      rows = xlsxRows(file, chosen);
    } catch (error) {
      await cleanup();
      throw error;
    }
  }
  const close = async () => {
    await rows.return(undefined).catch(() => {});
    await cleanup();
  };
  try {
    const first = await rows.next();
    if (first.done) throw new ImportFileError(problem("imports.fileEmptyNoHeader"));
    const headers = headerText(first.value);
    while (headers.length > 0 && headers[headers.length - 1] === "") headers.pop();
    checkHeader(headers);
    return { headers, date1904, rows, close };
  } catch (error) {
    await close();
    throw error;
  }
}
