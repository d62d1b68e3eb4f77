import Papa from "papaparse";
import { SUBSCRIBER_FIELDS } from "@/lib/subscribers/filters";

// The export's CSV: docs/SPEC.md's fields, UTF-8 with a BOM (so Excel reads accents), CRLF.
// Security: a spreadsheet in any locale may split cells at `,` `;` tab CR LF or `"`, so wherever
// a cell could start with a formula character an apostrophe goes in front, and values holding
// `;` or tab are quoted too. Do not narrow this to the start of the value.

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
export const neutralised = (value: string): string => (SUSPECT.test(value) ? value.replace(CELL_START_FORMULA, "'") : value);

/** The apostrophes `neutralised` put in front of cell starts. */
const NEUTRALISED = new RegExp(`(?<=(?:^|[${BREAK}]) *)'(?=[${TRIGGER}])`, "g");

/** Undoes `neutralised` when an export is imported back; an apostrophe typed there on purpose goes too (a spreadsheet hides it anyway). */
export const unneutralised = (value: string): string => (value.includes("'") ? value.replace(NEUTRALISED, "") : value);

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
export const csvHead = (): string => `\uFEFF${csvLines([[...EXPORT_COLUMNS]])}`;
