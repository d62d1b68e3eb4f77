import { buildZip, IMPORT_HEADER, sheetXml, workbookParts, type ZipPart } from "./zip";

// Workbooks a few hundred kilobytes long that unpack to what a reader might keep whole: the
// hostile uploads of the XLSX reader's memory tests (tests/http/imports-bounds.test.ts) and of
// its benchmark (scripts/bench/hostile-imports.ts). Each is a valid workbook of one good row
// beside a part of `mb` megabytes of one repeated piece of XML, deflated for real.

const MB = 1e6;
/** The rows of each workbook's worksheet. */
export const HOSTILE_ROWS = [IMPORT_HEADER, ["Ann", "Lee", "ann@hostile.test", "+447911123456"]];
const GOOD = sheetXml(HOSTILE_ROWS);
const SST = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">';

/** `open`, then `unit` repeated to `mb` megabytes, then `close`. */
function repeated(open: string, unit: string, mb: number, close: string): Buffer {
  const count = Math.floor((mb * MB) / Buffer.byteLength(unit));
  return Buffer.concat([Buffer.from(open), Buffer.alloc(count * Buffer.byteLength(unit), unit), Buffer.from(close)]);
}

function workbook(extra: ZipPart[], sheet = GOOD): Buffer {
  return buildZip([...workbookParts(sheet), ...extra]);
}

/** Styles of `mb` megabytes of `<xf/>` (each a style ExcelJS would keep as an object). */
export function stylesBomb(mb: number): Buffer {
  return workbook([{ name: "xl/styles.xml", data: repeated('<?xml version="1.0"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><cellXfs>', "<xf/>", mb, "</cellXfs></styleSheet>") }]);
}

/** Shared strings of `mb` megabytes of `unit`: `<si><r/></si>` (a rich-text run each) by default. */
export function sharedStringsBomb(mb: number, unit = "<si><r/></si>"): Buffer {
  return workbook([{ name: "xl/sharedStrings.xml", data: repeated(SST, unit, mb, "</sst>") }]);
}

/** The shapes that cost a reader the most memory per byte of XML, each just within the default limits. */
export const WITHIN_LIMITS: { name: string; file: () => Buffer }[] = [
  // 1,000,000 short texts (the count's limit).
  { name: "1,000,000 shared strings", file: () => sharedStringsBomb(18, "<si><t>ab</t></si>") },
  // Text cut into one-character pieces by tags (each piece kept as a joined string): 4.9 million tags.
  { name: "text cut by 4.9 million tags", file: () => sharedStringsBomb(24.95, `<si><t>${"a<x/>".repeat(99_800)}</t></si>`) },
  // 49 MB of three-byte characters (the bytes' limit).
  { name: "49 MB of CJK text", file: () => sharedStringsBomb(49, `<si><t>${"山".repeat(100)}</t></si>`) },
  // 100,000 rich-text runs (the runs' limit).
  { name: "100,000 rich-text runs", file: () => sharedStringsBomb(1.3, "<si><r/></si>") },
];
