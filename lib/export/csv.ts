import Papa from "papaparse";
import { SUBSCRIBER_FIELDS } from "@/lib/subscribers/filters";

// The CSV of the export: docs/SPEC.md's subscriber fields in docs/SPEC.md's order and names, UTF-8 with a
// byte order mark (so Excel reads accents right), RFC 4180 quoting and CRLF line ends, and
// spreadsheet formulas neutralised: a cell starting with =, +, -, @, tab or CR (or their
// full-width forms) gets a leading apostrophe, so Excel and others show it as text instead of
// running it.
//
// The text is written by Papa Parse's `unparse`, a batch of rows at a time: about twice as fast
// as csv-stringify, which it replaced (bench/README.md, "The export").

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
