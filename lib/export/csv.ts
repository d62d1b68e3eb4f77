import { stringify, type Options, type Stringifier } from "csv-stringify";
import { SUBSCRIBER_FIELDS } from "@/lib/subscribers/filters";

// The CSV of the export: SPEC.md's subscriber fields in SPEC.md's order and names, UTF-8 with a
// byte order mark (so Excel reads accents right), RFC 4180 quoting and line ends, and spreadsheet
// formulas neutralised: a cell starting with =, +, -, @, tab or CR (or their full-width forms)
// gets a leading apostrophe, so Excel and others show it as text instead of running it.

export const EXPORT_COLUMNS = SUBSCRIBER_FIELDS;

export const CSV_OPTIONS: Options = {
  bom: true,
  header: true,
  columns: [...EXPORT_COLUMNS],
  record_delimiter: "\r\n",
  escape_formulas: true,
};

/** A transform stream: rows (arrays in EXPORT_COLUMNS order, strings or null) in, CSV text out. */
export function csvStringifier(): Stringifier {
  return stringify(CSV_OPTIONS);
}

/** What a cell holding `value` reads back as once the file is parsed (tests; the formula rule). */
export function neutralised(value: string): string {
  return /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(value) ? `'${value}` : value;
}
