import zlib from "node:zlib";

// Zip files written by hand, for tests of what an XLSX reader does with hostile ones: each part
// deflated (or stored) for real, with the sizes its headers claim chosen by the test. A part
// with `declaredSize` smaller than its data is the zip bomb with false sizes: its central
// directory (and local header) says it unpacks to a few bytes, its data inflates to megabytes.

export type ZipPart = { name: string; data: Buffer | string; declaredSize?: number; store?: boolean };

export function buildZip(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const data = Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data, "utf8");
    const packed = part.store ? data : zlib.deflateRawSync(data, { level: 9 });
    const name = Buffer.from(part.name, "utf8");
    const crc = zlib.crc32(data);
    const size = part.declaredSize ?? data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(part.store ? 0 : 8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(part.store ? 0 : 8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const column = (i: number) => String.fromCharCode(65 + i);

/** A worksheet's XML: each row at its row number (`null` rows left out, as a spreadsheet leaves empty rows out), strings inline. */
export function sheetXml(rows: (string[] | null)[], extraCell?: { row: number; xml: string }): string {
  const body = rows
    .map((cells, r) =>
      cells === null
        ? ""
        : `<row r="${r + 1}">${cells.map((c, i) => `<c r="${column(i)}${r + 1}" t="inlineStr"><is><t>${escape(c)}</t></is></c>`).join("")}${extraCell?.row === r + 1 ? extraCell.xml : ""}</row>`,
    )
    .join("");
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${body}</sheetData></worksheet>`;
}

/** The parts of a one-worksheet workbook ("Sheet1"), with the given worksheet and shared strings XML. */
export function workbookParts(sheet: string, sharedStrings?: string): ZipPart[] {
  return [
    { name: "[Content_Types].xml", data: '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>' },
    {
      name: "xl/workbook.xml",
      data: '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>',
    },
    {
      name: "xl/_rels/workbook.xml.rels",
      data: '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
    },
    { name: "xl/worksheets/sheet1.xml", data: sheet },
    ...(sharedStrings === undefined ? [] : [{ name: "xl/sharedStrings.xml", data: sharedStrings }]),
  ];
}

/** A shared-string table of these strings. */
export function sharedStringsXml(strings: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${strings.map((s) => `<si><t>${escape(s)}</t></si>`).join("")}</sst>`;
}

export const IMPORT_HEADER = ["first_name", "last_name", "email", "mobile"];

/**
 * The zip bomb with false sizes: a valid workbook of one good row, and a row whose cell is a
 * shared string of `inflated` bytes ("A" repeated: a few hundred bytes per megabyte once
 * deflated), while the zip declares that shared-string part `declared` bytes long.
 */
export function lyingXlsx(inflated: number, declared = 20_000): Buffer {
  const sheet = sheetXml([IMPORT_HEADER, ["Ann", "Lee", "ann@bomb.test", "+447911123456"], ["Bob", "Roe", "bob@bomb.test", "+447911123457"]], {
    row: 3,
    xml: '<c r="E3" t="s"><v>0</v></c>',
  });
  const prefix = '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>';
  const suffix = "</t></si></sst>";
  const sst = Buffer.concat([Buffer.from(prefix), Buffer.alloc(inflated, "A"), Buffer.from(suffix)]);
  const parts = workbookParts(sheet).concat([{ name: "xl/sharedStrings.xml", data: sst, declaredSize: declared }]);
  return buildZip(parts);
}
