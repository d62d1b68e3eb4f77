import Papa from "papaparse";
import { SUBSCRIBER_FIELDS } from "@/lib/subscribers/fields";

// The CSV of the export: SPEC.md's subscriber fields in SPEC.md's order and names, UTF-8 with a
// byte order mark (so Excel reads accents right), RFC 4180 quoting and CRLF line ends, and
// spreadsheet formulas neutralised: a cell starting with =, +, -, @, tab or CR (or their
// full-width forms) gets a leading apostrophe, so Excel and others show it as text instead of
// running it.
//
// The text is written by Papa Parse's `unparse`, a batch of rows at a time: at a million rows it
// takes ~1.3 s where csv-stringify's stream took ~3 s (bench/README.md). No Node or app imports
// beyond the field list: the export's worker threads load this module (lib/export/thread.ts).

export const EXPORT_COLUMNS = SUBSCRIBER_FIELDS;

/** A cell that a spreadsheet would run as a formula. */
export const FORMULA = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

export type CsvCell = string | null;

const OPTIONS: Papa.UnparseConfig = { header: false, newline: "\r\n", escapeFormulae: FORMULA };

/** Rows (arrays in EXPORT_COLUMNS order) as CSV lines, each ending with CRLF; nulls are empty cells. */
export function csvLines(rows: readonly (readonly CsvCell[])[]): string {
  return rows.length === 0 ? "" : `${Papa.unparse(rows as CsvCell[][], OPTIONS)}\r\n`;
}

/** The start of every file: the byte order mark and the header line. */
export function csvHead(): string {
  return `\uFEFF${csvLines([[...EXPORT_COLUMNS]])}`;
}

/** What a cell holding `value` reads back as once the file is parsed (tests; the formula rule). */
export function neutralised(value: string): string {
  return FORMULA.test(value) ? `'${value}` : value;
}
