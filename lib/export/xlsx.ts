import { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import archiver from "archiver";
import { config } from "@/lib/config";
import { EXPORT_COLUMNS, type CsvCell } from "./csv";
import { XLSX_CELL_MAX, xlsxText } from "./xlsx-text";

// The export as an Excel workbook (docs/API.md, "Export as XLSX"): the worksheets' XML written
// row by row from the export's batches and zipped by archiver, which pulls each part as the
// storage reads the zip, so memory does not grow with the rows. Typed cells, every text an inline
// string (never a formula, never a shared-strings table that grows with the rows), further sheets
// past Excel's row limit. Why not ExcelJS's writer: docs/decisions/0025-xlsx-export.md.

/** Excel's rows per worksheet, less the header row. */
export const SHEET_DATA_ROWS = 1_048_575;

type Row = readonly CsvCell[];
type Batches = AsyncIterable<readonly Row[]>;
type Kind = "number" | "date" | "datetime" | "boolean" | "text";

const KINDS: Partial<Record<(typeof EXPORT_COLUMNS)[number], Kind>> = {
  id: "number",
  travel_date: "date",
  created_at: "datetime",
  is_duplicate: "boolean",
  is_mandatory: "boolean",
};
const kinds: Kind[] = EXPORT_COLUMNS.map((c) => KINDS[c] ?? "text");
const letters = EXPORT_COLUMNS.map((_, i) => String.fromCharCode(65 + i)); // 13 columns: A–M

/** Widths (in characters) of the columns whose text has a known length. */
const FIXED_WIDTHS: Partial<Record<Kind, number>> = { date: 12, datetime: 20, boolean: 14 };
const MAX_WIDTH = 60;

const NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships";
const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** Cell styles (cellXfs): 0 plain, 1 date, 2 date and time, 3 the header's bold. */
const STYLE = { date: 1, datetime: 2, header: 3 } as const;
const STYLES_XML = `${HEAD}<styleSheet xmlns="${NS}">\
<numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/><numFmt numFmtId="165" formatCode="yyyy-mm-dd hh:mm:ss"/></numFmts>\
<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>\
<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>\
<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>\
<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>\
<cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>\
<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>\
<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>\
<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>\
<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;

export type XlsxOptions = { timeZone?: string; sheetRows?: number };

/** The workbook's bytes as a stream, written as `batches` come and as fast as the stream is read. */
export function xlsxStream(batches: Batches, options: XlsxOptions = {}): Readable {
  // Level 1: the rows are built slower than any level deflates them, and the file is 10–15% larger.
  const zip = archiver("zip", { zlib: { level: 1 } });
  const cursor = new Cursor(batches);
  const sheetRows = options.sheetRows ?? SHEET_DATA_ROWS;
  const serial = serials(options.timeZone ?? config().CONSOLE_TIME_ZONE);
  let part: Readable | null = null;
  // The storage gave up (an abort, a failed upload): stop reading the rows.
  zip.once("close", () => part?.destroy());
  (async () => {
    let sheets = 0;
    do {
      sheets++;
      part = Readable.from(sheetXml(cursor, sheetRows, serial), { objectMode: false });
      zip.append(part, { name: `xl/worksheets/sheet${sheets}.xml` });
      // The next sheet is known to be needed only once this one is full.
      await finished(part);
    } while (!(await cursor.done()));
    const names = Array.from({ length: sheets }, (_, i) => (i === 0 ? "Subscribers" : `Subscribers ${i + 1}`));
    for (const [name, xml] of packageParts(names)) zip.append(xml, { name });
    await zip.finalize();
  })()
    .catch((error: unknown) => {
      // Already destroyed by its reader: archiver's stream would emit this error to nobody.
      if (!zip.destroyed) zip.destroy(error as Error);
    })
    .finally(() => cursor.close().catch(() => {})); // the error, if any, is the zip's
  return zip;
}

/** The export's rows one batch at a time, read as far as each sheet needs. */
class Cursor {
  private batch: readonly Row[] = [];
  private at = 0;
  private readonly source: AsyncIterator<readonly Row[]>;
  private ended = false;

  constructor(batches: Batches) {
    this.source = batches[Symbol.asyncIterator]();
  }

  /** Up to `max` rows from the current batch (reading the next when it is used up); none at the end. */
  async take(max: number): Promise<readonly Row[]> {
    if (this.at === this.batch.length && !(await this.fill())) return [];
    const rows = this.at === 0 && this.batch.length <= max ? this.batch : this.batch.slice(this.at, this.at + max);
    this.at += rows.length;
    return rows;
  }

  /** The rows still to come, without taking any (the first batch gives the columns' widths). */
  async peek(): Promise<readonly Row[]> {
    if (this.at === this.batch.length) await this.fill();
    return this.batch.slice(this.at);
  }

  /** Ends the rows' source early (after an error or an abort); the database's read ends with it. */
  async close(): Promise<void> {
    if (!this.ended) {
      this.ended = true;
      await this.source.return?.();
    }
  }

  async done(): Promise<boolean> {
    return this.at === this.batch.length && !(await this.fill());
  }

  private async fill(): Promise<boolean> {
    while (!this.ended) {
      const next = await this.source.next();
      if (next.done) this.ended = true;
      else if (next.value.length > 0) {
        this.batch = next.value;
        this.at = 0;
        return true;
      }
    }
    return false;
  }
}

/** One worksheet: the header, then up to `max` rows, a string per batch. */
async function* sheetXml(cursor: Cursor, max: number, serial: Serials): AsyncGenerator<string> {
  const widths = fitWidths(await cursor.peek());
  const cols = widths.map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`).join("");
  const header = EXPORT_COLUMNS.map((name, i) => `<c r="${letters[i]}1" s="${STYLE.header}" t="inlineStr"><is><t>${name}</t></is></c>`).join("");
  yield `${HEAD}<worksheet xmlns="${NS}" xmlns:r="${REL_NS}"><sheetViews><sheetView workbookViewId="0">\
<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft"/></sheetView></sheetViews>\
<sheetFormatPr defaultRowHeight="15"/><cols>${cols}</cols><sheetData><row r="1">${header}</row>`;
  let r = 1;
  while (r - 1 < max) {
    const rows = await cursor.take(max - (r - 1));
    if (rows.length === 0) break;
    let xml = "";
    for (const row of rows) xml += rowXml(row, ++r, serial);
    yield xml;
  }
  yield "</sheetData></worksheet>";
}

function rowXml(row: Row, r: number, serial: Serials): string {
  let xml = `<row r="${r}">`;
  for (let i = 0; i < kinds.length; i++) {
    const value = row[i];
    if (value === null || value === undefined || value === "") continue;
    const ref = `${letters[i]}${r}`;
    switch (kinds[i]) {
      case "number":
        xml += `<c r="${ref}"><v>${Number(value)}</v></c>`;
        break;
      case "boolean":
        xml += `<c r="${ref}" t="b"><v>${value === "true" ? 1 : 0}</v></c>`;
        break;
      case "date":
      case "datetime": {
        const kind = kinds[i] as "date" | "datetime";
        const v = kind === "date" ? serial.day(value) : serial.instant(value);
        // A date a spreadsheet cannot show as one stays the text the CSV has.
        xml += v === null ? textCell(ref, value) : `<c r="${ref}" s="${STYLE[kind]}"><v>${v}</v></c>`;
        break;
      }
      default:
        xml += textCell(ref, value);
    }
  }
  return `${xml}</row>`;
}

const textCell = (ref: string, value: string) => `<c r="${ref}" t="inlineStr"><is>${textElement(value)}</is></c>`;

const XML_SPECIAL = /[&<>]/;
const XML_SPECIAL_ALL = /[&<>]/g;
const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };
/** Whitespace a spreadsheet would drop or fold unless told to keep it. */
const KEEP_SPACE = /^\s|\s$|[\t\n]| {2}/;

/** Anything that needs one of the steps below; most values need none. */
const SPECIAL = /[\u0000-\u001F\uFFFE\uFFFF_&<>]|^\s|\s$| {2}/;

/** An inline string's `<t>`: ST_Xstring escapes first (xlsx-text.ts), then XML's. */
function textElement(value: string): string {
  if (value.length <= XLSX_CELL_MAX && !SPECIAL.test(value)) return `<t>${value}</t>`;
  let text = xlsxText(value);
  if (XML_SPECIAL.test(text)) text = text.replace(XML_SPECIAL_ALL, (c) => ENTITIES[c]!);
  return KEEP_SPACE.test(text) ? `<t xml:space="preserve">${text}</t>` : `<t>${text}</t>`;
}

/** The header's and the first batch's longest value per column, within bounds. */
function fitWidths(rows: readonly Row[]): number[] {
  return EXPORT_COLUMNS.map((name, i) => {
    const fixed = FIXED_WIDTHS[kinds[i]!];
    if (fixed) return Math.max(fixed, name.length + 2);
    let longest = name.length;
    for (const row of rows) longest = Math.max(longest, row[i]?.length ?? 0);
    return Math.min(MAX_WIDTH, longest + 2);
  });
}

/** A spreadsheet serial, or null for a day a spreadsheet cannot show as a date. */
type Serials = { day: (iso: string) => number | null; instant: (iso: string) => number | null };

const DAY_MS = 86_400_000;
/** Excel's serial of 1970-01-01 (its 1900 date system). */
const EPOCH = 25_569;
/**
 * The serials Excel and LibreOffice read alike: from 1900-03-01 (before it, Excel counts a
 * 29 February 1900 that never was, LibreOffice does not) up to Excel's last day, 9999-12-31.
 * Outside (or `infinity`, or a year past 9999 that PostgreSQL may hold) the cell is text.
 */
const FIRST_SERIAL = 61;
const END_SERIAL = 2_958_466;
const inRange = (serial: number) => (serial >= FIRST_SERIAL && serial < END_SERIAL ? serial : null);

/**
 * Spreadsheet serials: a day as it is; an instant (ISO, UTC) as the date and time a clock in
 * `timeZone` shows, since a spreadsheet's date-times have no zone. The zone's offset is looked up
 * once per quarter hour (every zone's changes fall on one).
 */
export function serials(timeZone: string): Serials {
  const format = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  });
  const offsets = new Map<number, number>();
  const offsetAt = (ms: number) => {
    const quarter = Math.floor(ms / 900_000);
    let offset = offsets.get(quarter);
    if (offset === undefined) {
      const p = Object.fromEntries(format.formatToParts(quarter * 900_000).map((x) => [x.type, Number(x.value)]));
      offset = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - quarter * 900_000;
      if (offsets.size > 10_000) offsets.clear();
      offsets.set(quarter, offset);
    }
    return offset;
  };
  return {
    day: (iso) => inRange(Date.parse(`${iso}T00:00:00Z`) / DAY_MS + EPOCH),
    instant: (iso) => {
      const ms = Date.parse(iso);
      return Number.isNaN(ms) ? null : inRange((ms + offsetAt(ms)) / DAY_MS + EPOCH);
    },
  };
}

/** The package's other parts, once the sheets are known: workbook, relationships, content types, styles. */
function packageParts(names: string[]): [string, string][] {
  const sheets = names.map((name, i) => `<sheet name="${name}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join("");
  const sheetRels = names
    .map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`)
    .join("");
  const sheetTypes = names
    .map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`)
    .join("");
  return [
    ["xl/styles.xml", STYLES_XML],
    ["xl/workbook.xml", `${HEAD}<workbook xmlns="${NS}" xmlns:r="${REL_NS}"><bookViews><workbookView/></bookViews><sheets>${sheets}</sheets></workbook>`],
    [
      "xl/_rels/workbook.xml.rels",
      `${HEAD}<Relationships xmlns="${PKG_REL_NS}">${sheetRels}<Relationship Id="rId${names.length + 1}" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
    ],
    ["_rels/.rels", `${HEAD}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`],
    [
      "[Content_Types].xml",
      `${HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">\
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>\
<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${sheetTypes}\
<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
    ],
  ];
}
