import Papa from "papaparse";
import { SUBSCRIBER_FIELDS } from "@/lib/subscribers/filters";

// The CSV of the export: docs/SPEC.md's subscriber fields in docs/SPEC.md's order and names, UTF-8 with a
// byte order mark (so Excel reads accents right), RFC 4180 quoting and CRLF line ends, and
// spreadsheet formulas neutralised in every locale.
//
// A spreadsheet does not always split the file at our commas: Excel in a `;`-separator locale
// splits at `;`, others at tab, and some readers ignore quotes or trim spaces. So a cell may start
// at the start of a value or right after any `,` `;` tab CR LF or `"` inside it. Wherever one
// could start (after optional spaces) with =, +, -, @, tab or CR (or their full-width forms), an
// apostrophe goes in front, so the spreadsheet shows text instead of running a formula; and every
// value holding one of those separators is quoted, so a reader that honours quotes keeps it whole.
//
// The text is written by Papa Parse's `unparse`, a batch of rows at a time: about twice as fast
// as csv-stringify, which it replaced (bench/README.md, "The export").

export const EXPORT_COLUMNS = SUBSCRIBER_FIELDS;

const TRIGGER = "=+\\-@\\t\\r\\uFF1D\\uFF0B\\uFF0D\\uFF20";
const BREAK = ",;\\t\\r\\n\"";

/** A cell that a spreadsheet would run as a formula (once leading spaces are trimmed). */
const FORMULA = new RegExp(`^ *[${TRIGGER}]`);

/** Every place inside a value where a spreadsheet could start a cell that it would run. */
const CELL_START_FORMULA = new RegExp(`(?<=(?:^|[${BREAK}]) *)(?=[${TRIGGER}])`, "g");
/** A value that needs the full scan: a separator-like character, or a formula at its start. */
const SUSPECT = new RegExp(`[${BREAK}]|${FORMULA.source}`);
/** Characters that make a value quoted beyond Papa's own rule (comma, quote, CR, LF, edge spaces). */
const SEPARATOR = /[;\t]/;

export type CsvCell = string | null;

/** What a cell holding `value` reads back as once the file is parsed with `,` (the rule above). */
export function neutralised(value: string): string {
  return SUSPECT.test(value) ? value.replace(CELL_START_FORMULA, "'") : value;
}

/** The apostrophes `neutralised` put in front of cell starts. */
const NEUTRALISED = new RegExp(`(?<=(?:^|[${BREAK}]) *)'(?=[${TRIGGER}])`, "g");

/**
 * A value as it was before `neutralised` (the import reads an export back): every apostrophe at
 * a place a cell could start, followed by a formula's first character, goes. A value typed with
 * such an apostrophe on purpose loses it: a spreadsheet hides that apostrophe too.
 */
export function unneutralised(value: string): string {
  return value.includes("'") ? value.replace(NEUTRALISED, "") : value;
}

const OPTIONS: Papa.UnparseConfig = {
  header: false,
  newline: "\r\n",
  escapeFormulae: false, // done by `neutralised`, at every place a cell can start
  quotes: (value: unknown) => typeof value === "string" && SEPARATOR.test(value),
};

const safeRow = (row: readonly CsvCell[]) => row.map((v) => (v === null ? null : neutralised(v)));

/** Rows (arrays in EXPORT_COLUMNS order) as CSV lines, each ending with CRLF; nulls are empty cells. */
export function csvLines(rows: readonly (readonly CsvCell[])[]): string {
  return rows.length === 0 ? "" : `${Papa.unparse(rows.map(safeRow), OPTIONS)}\r\n`;
}

/** The start of every file: the byte order mark and the header line. */
export function csvHead(): string {
  return `\uFEFF${csvLines([[...EXPORT_COLUMNS]])}`;
}
