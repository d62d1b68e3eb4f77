import fs from "node:fs";
import { Transform, type Readable } from "node:stream";
import ExcelJS from "exceljs";
import Papa from "papaparse";
import yauzl from "yauzl";
import { AppError } from "@/lib/errors";
import type { Cell } from "./cells";
import type { TextEncoding } from "./sniff";

// Reading an import's file as rows of cells, one at a time: a CSV through Papa Parse's stream
// (after decoding its text), an XLSX through ExcelJS's streaming reader (worksheets, shared
// strings and cells as the zip inflates, never the whole workbook), after its central directory
// says how large it unpacks (a zip bomb is refused before any of it is inflated).

/** More rows than a spreadsheet holds (Excel's 1,048,576, header included) are refused. */
export const MAX_ROWS = 1_048_576;
/** A cell longer than this is not a subscriber's (and a quote left open swallows the file into one). */
export const MAX_CELL = 10_000;

export class ImportFileError extends AppError {
  constructor(message: string) {
    super(400, "invalid_file", message);
  }
}

/** Bytes to text, chunk by chunk (a character cut between chunks is kept for the next). */
function decoder(encoding: TextEncoding, skip: number): Transform {
  const text = new TextDecoder(encoding, { fatal: encoding === "utf-8", ignoreBOM: true });
  let toSkip = skip;
  return new Transform({
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
        done(new ImportFileError("The file is not valid UTF-8 text past its first lines: save it as UTF-8 CSV (or XLSX)."));
      }
    },
    flush(done) {
      try {
        done(null, text.decode());
      } catch {
        done(new ImportFileError("The file ends in the middle of a character: it is cut off or not UTF-8."));
      }
    },
  });
}

/** A CSV's rows (the header first) as text cells. */
export async function* csvRows(body: Readable, options: { encoding: TextEncoding; bom: number; delimiter: string }): AsyncGenerator<string[]> {
  const parser = Papa.parse(Papa.NODE_STREAM_INPUT, { delimiter: options.delimiter, header: false, skipEmptyLines: "greedy" });
  const text = body.pipe(decoder(options.encoding, options.bom));
  body.on("error", (e) => text.destroy(e));
  text.on("error", (e) => parser.destroy(e));
  text.pipe(parser);
  try {
    for await (const row of parser as AsyncIterable<string[]>) yield row;
  } finally {
    body.destroy();
  }
}

/** An XLSX's entries from its central directory: names and unpacked sizes, nothing inflated. */
function zipEntries(path: string): Promise<{ name: string; size: number }[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: true }, (error, zip) => {
      if (error || !zip) return reject(new ImportFileError("This is not a readable XLSX file (its zip structure is broken)."));
      const entries: { name: string; size: number }[] = [];
      zip.on("entry", (entry: yauzl.Entry) => {
        entries.push({ name: entry.fileName, size: entry.uncompressedSize });
        zip.readEntry();
      });
      zip.on("end", () => resolve(entries));
      zip.on("error", () => reject(new ImportFileError("This is not a readable XLSX file (its zip structure is broken).")));
      zip.readEntry();
    });
  });
}

/** One small entry's text (the workbook's list of worksheets). */
function zipText(path: string, name: string, max = 4 << 20): Promise<string | null> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: true }, (error, zip) => {
      if (error || !zip) return reject(new ImportFileError("This is not a readable XLSX file."));
      let found = false;
      zip.on("entry", (entry: yauzl.Entry) => {
        if (entry.fileName !== name || entry.uncompressedSize > max) return zip.readEntry();
        found = true;
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(new ImportFileError("This is not a readable XLSX file."));
          const chunks: Buffer[] = [];
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("end", () => {
            zip.close();
            resolve(Buffer.concat(chunks).toString("utf8"));
          });
          stream.on("error", () => reject(new ImportFileError("This is not a readable XLSX file.")));
        });
      });
      zip.on("end", () => !found && resolve(null));
      zip.on("error", () => reject(new ImportFileError("This is not a readable XLSX file.")));
      zip.readEntry();
    });
  });
}

const unescapeXml = (s: string) =>
  s.replace(/&(lt|gt|quot|apos|amp|#\d+|#x[0-9a-f]+);/gi, (_, e: string) =>
    e === "lt" ? "<" : e === "gt" ? ">" : e === "quot" ? '"' : e === "apos" ? "'" : e === "amp" ? "&" : String.fromCodePoint(e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)),
  );

export type Worksheet = { name: string; file: number };

/**
 * Checks an XLSX before reading it: a workbook (not any zip), whose entries unpack to at most
 * `maxUnpacked` bytes; returns its worksheets in the workbook's order, with the number of each
 * one's part (`xl/worksheets/sheetN.xml`), which is how the streaming reader names them.
 */
export async function inspectXlsx(path: string, maxUnpacked: number): Promise<Worksheet[]> {
  const entries = await zipEntries(path);
  const unpacked = entries.reduce((sum, e) => sum + e.size, 0);
  if (unpacked > maxUnpacked) {
    throw new ImportFileError(`This XLSX unpacks to ${Math.round(unpacked / 1e6)} MB, more than the ${Math.round(maxUnpacked / 1e6)} MB accepted: it is refused unread (save it as CSV, or split it).`);
  }
  const workbook = await zipText(path, "xl/workbook.xml");
  const rels = await zipText(path, "xl/_rels/workbook.xml.rels");
  if (!workbook || !rels) throw new ImportFileError("This zip file is not an XLSX workbook.");
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
    if (name !== undefined && file !== undefined) sheets.push({ name: unescapeXml(name), file });
  }
  if (sheets.length === 0) throw new ImportFileError("This workbook has no worksheet.");
  return sheets;
}

/** A spreadsheet cell's value as the import reads it: cached results of formulas (never evaluated), text of rich text. */
function cellValue(value: ExcelJS.CellValue): Cell {
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

/** A worksheet's rows (the header first) as cells; empty rows are skipped, columns by position. */
export async function* xlsxRows(path: string, worksheet: Worksheet): AsyncGenerator<Cell[]> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(fs.createReadStream(path), {
    worksheets: "emit",
    sharedStrings: "cache",
    styles: "cache", // which numbers are dates
    hyperlinks: "ignore",
    entries: "ignore",
  });
  for await (const sheet of reader) {
    const id = (sheet as unknown as { id: number }).id;
    if (id !== worksheet.file) {
      // Not this one: read past it (the zip is read in order) without keeping anything.
      for await (const _ of sheet) void _;
      continue;
    }
    for await (const row of sheet) {
      const r = row as ExcelJS.Row;
      const values = r.values as ExcelJS.CellValue[]; // 1-based
      const cells: Cell[] = [];
      for (let i = 1; i < values.length; i++) cells.push(cellValue(values[i] ?? null));
      if (cells.some((c) => c !== null && c !== "")) yield cells;
    }
    return;
  }
}
