import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Cell } from "@/lib/imports/cells";
import { ImportFileError, inspectXlsx, MAX_COLUMNS, xlsxLimits, xlsxRows, type Worksheet } from "@/lib/imports/read";
import { MAX_RICH_TEXT_RUNS } from "@/lib/imports/xlsx-stream";
import { HOSTILE_ROWS, sharedStringsBomb, stylesBomb } from "../helpers/hostile-xlsx";
import { buildZip, IMPORT_HEADER, sharedStringsXml, sheetXml, workbookParts, type ZipPart } from "../helpers/zip";

// What reading an XLSX keeps, whatever the file: no styles at all, only the worksheet asked for,
// the shared strings bounded by bytes, count, tags and runs, a row and a cell's column bounded;
// and a workbook's list of worksheets that a spreadsheet would not write refused with a reason.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "imports-xlsx-bounds-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const SHEET: Worksheet = { name: "Sheet1", file: 1 };
const MB = 1e6;

function file(name: string, bytes: Buffer): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, bytes);
  return p;
}

async function read(p: string, limits = xlsxLimits(), worksheet = SHEET): Promise<Cell[][]> {
  const rows: Cell[][] = [];
  for await (const r of xlsxRows(p, worksheet, limits)) rows.push(r);
  return rows;
}

const refusal = (p: string, limits = xlsxLimits()) => read(p, limits).then(
  () => null,
  (e: unknown) => e,
);

/** A worksheet of these rows of raw cell XML. */
const rawSheet = (rows: string[]) =>
  `<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows.map((cells, i) => `<row r="${i + 1}">${cells}</row>`).join("")}</sheetData></worksheet>`;
const GOOD_ROWS = [IMPORT_HEADER, ["Ann", "Lee", "ann@x.test", "+447911123456"]];

// Files of megabytes are built and read here: slower than most unit tests on a busy machine.
describe("what reading an XLSX keeps is bounded", { timeout: 60_000 }, () => {
  it("never reads the styles: 20 MB of <xf/> in a file of some 30 KB cost neither time nor memory", async () => {
    const bomb = file("styles.xlsx", stylesBomb(20));
    expect(fs.statSync(bomb).size).toBeLessThan(50_000);
    const before = process.memoryUsage().rss;
    const started = Date.now();
    expect(await read(bomb)).toEqual(HOSTILE_ROWS);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(process.memoryUsage().rss - before).toBeLessThan(50 * MB);
  });

  it("refuses 400 MB of shared strings in a file of some 800 KB by its size, before reading any of it", async () => {
    const bomb = file("sst.xlsx", sharedStringsBomb(400));
    expect(fs.statSync(bomb).size).toBeLessThan(1_000_000);
    const before = process.memoryUsage().rss;
    const started = Date.now();
    const error = await refusal(bomb);
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as Error).message).toMatch(/its shared strings\) take 400 MB, more than the 50 MB an import reads/);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(process.memoryUsage().rss - before).toBeLessThan(50 * MB);
  });

  it("refuses shared strings past their count, their tags or their rich-text runs, naming the limit", async () => {
    const small = { ...xlsxLimits(), maxSharedStrings: 1_000 };
    const texts = (n: number) => Array.from({ length: n }, (_, i) => `text ${i}`);
    const sheet = sheetXml(GOOD_ROWS);
    expect(await read(file("1000.xlsx", buildZip(workbookParts(sheet, sharedStringsXml(texts(1_000))))), small)).toEqual(GOOD_ROWS);
    const many = await refusal(file("1001.xlsx", buildZip(workbookParts(sheet, sharedStringsXml(texts(1_001))))), small);
    expect(many).toBeInstanceOf(ImportFileError);
    expect((many as Error).message).toMatch(/holds more than 1,000 different texts \(its shared strings\)/);
    // Text cut by tags into pieces (ExcelJS joins them, each piece costing more than its bytes).
    const cut = `<si><t>${"a<x/>".repeat(5_000)}</t></si>`;
    const tags = await refusal(file("tags.xlsx", buildZip(workbookParts(sheet, sharedStringsXml([]).replace("</sst>", `${cut}</sst>`)))), small);
    expect(tags).toBeInstanceOf(ImportFileError);
    expect((tags as Error).message).toMatch(/hold more than 5,000 tags/);
    const runs = await refusal(file("runs.xlsx", sharedStringsBomb(((MAX_RICH_TEXT_RUNS + 1) * 13) / MB)));
    expect(runs).toBeInstanceOf(ImportFileError);
    expect((runs as Error).message).toMatch(/more than 100,000 runs of formatted text/);
    expect(await read(file("runs-ok.xlsx", sharedStringsBomb((MAX_RICH_TEXT_RUNS * 13) / MB)))).toEqual(HOSTILE_ROWS);
  });

  it(`reads cells up to column ${MAX_COLUMNS} and refuses one past it before ExcelJS walks the columns to it`, async () => {
    const header = IMPORT_HEADER.map((h, i) => `<c r="${"ABCD"[i]}1" t="inlineStr"><is><t>${h}</t></is></c>`).join("");
    const at200 = file("gr.xlsx", buildZip(workbookParts(rawSheet([`${header}<c r="GR1" t="inlineStr"><is><t>last</t></is></c>`]))));
    const [row] = await read(at200);
    expect(row).toHaveLength(200);
    expect(row![199]).toBe("last");
    // One cell in column XFD on each of 2,000 rows took the reader 20 s (16,384 steps a row).
    const rows = [header, ...Array.from({ length: 2_000 }, (_, i) => `<c r="A${i + 2}"><v>1</v></c><c r="XFD${i + 2}"><v>1</v></c>`)];
    const started = Date.now();
    const wide = await refusal(file("xfd.xlsx", buildZip(workbookParts(rawSheet(rows)))));
    expect(wide).toBeInstanceOf(ImportFileError);
    expect((wide as Error).message).toMatch(/has a cell in column XFD \(XFD2\), past the 200 columns an import reads/);
    expect(Date.now() - started).toBeLessThan(2_000);
    const gs = await refusal(file("gs.xlsx", buildZip(workbookParts(rawSheet([`${header}<c r="GS1"><v>1</v></c>`])))));
    expect((gs as Error).message).toMatch(/column GS \(GS1\)/);
    // A reference a spreadsheet never writes (an entity the XML reader would decode to XFD1).
    const hidden = await refusal(file("entity.xlsx", buildZip(workbookParts(rawSheet([`${header}<c r="&#88;FD1"><v>1</v></c>`])))));
    expect((hidden as Error).message).toMatch(/is at "&#88;FD1", not a cell reference a spreadsheet writes/);
    const padded = await refusal(file("padded.xlsx", buildZip(workbookParts(rawSheet([`${header}<c ${" ".repeat(300)}r="XFD1"><v>1</v></c>`])))));
    expect((padded as Error).message).toMatch(/has a tag of more than 256 bytes/);
  });

  it("refuses a row of more than 2 MB of XML and more column definitions than a spreadsheet has", async () => {
    // 200 cells of 20,000 characters: each under the cell's 1 MB, 4 MB for the row.
    const cells = Array.from({ length: 200 }, (_, i) => `<c r="${column(i + 1)}2" t="inlineStr"><is><t>${"x".repeat(20_000)}</t></is></c>`).join("");
    const header = `<c r="A1" t="inlineStr"><is><t>first_name</t></is></c>`;
    const big = await refusal(file("row.xlsx", buildZip(workbookParts(rawSheet([header, cells])))));
    expect(big).toBeInstanceOf(ImportFileError);
    expect((big as Error).message).toMatch(/A row of this XLSX \(in xl\/worksheets\/sheet1\.xml\) holds more than 2 MB of XML/);
    // Rows that close themselves do not count what follows them as a row's.
    const merges = `<mergeCells>${'<mergeCell ref="A1:B1"/>'.repeat(150_000)}</mergeCells>`;
    const selfClosed = rawSheet([header]).replace("</sheetData>", `<row r="9" s="1" customFormat="1"/></sheetData>${merges}`);
    expect(await read(file("self-closed.xlsx", buildZip(workbookParts(selfClosed))))).toEqual([["first_name"]]);
    const cols = rawSheet([header]).replace("<sheetData>", `<cols>${'<col min="1" max="1"/>'.repeat(16_385)}</cols><sheetData>`);
    const defined = await refusal(file("cols.xlsx", buildZip(workbookParts(cols))));
    expect((defined as Error).message).toMatch(/defines more than 16,384 columns/);
  });

  it("reads only the worksheet asked for, found by its part whatever its sheetId", async () => {
    // The second worksheet is hostile (a cell in column XFD); the first, whose sheetId is 7, is read.
    const parts: ZipPart[] = workbookParts(sheetXml(GOOD_ROWS)).map((p) =>
      p.name === "xl/workbook.xml"
        ? { ...p, data: String(p.data).replace('<sheet name="Sheet1" sheetId="1" r:id="rId1"/>', '<sheet name="People" sheetId="7" r:id="rId1"/><sheet name="Other" sheetId="2" r:id="rId2"/>') }
        : p.name === "xl/_rels/workbook.xml.rels"
          ? { ...p, data: String(p.data).replace("</Relationships>", '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet2.xml"/></Relationships>') }
          : p,
    );
    parts.push({ name: "xl/worksheets/sheet2.xml", data: rawSheet(['<c r="XFD1"><v>1</v></c>']) });
    const book = file("two.xlsx", buildZip(parts));
    const { worksheets } = await inspectXlsx(book, 1000 * MB);
    expect(worksheets).toEqual([{ name: "People", file: 1 }, { name: "Other", file: 2 }]);
    expect(await read(book, xlsxLimits(), worksheets[0])).toEqual(GOOD_ROWS);
    await expect(read(book, xlsxLimits(), worksheets[1])).rejects.toThrow(/column XFD/);
  });
});

describe("a workbook's list of worksheets", () => {
  const named = (name: string, workbookPr = "") =>
    file(
      "named.xlsx",
      buildZip(
        workbookParts(sheetXml(GOOD_ROWS)).map((p) => (p.name === "xl/workbook.xml" ? { ...p, data: String(p.data).replace("<sheets>", `${workbookPr}<sheets>`).replace('name="Sheet1"', `name="${name}"`) } : p)),
      ),
    );

  it("refuses a name that references no character XML allows, with the reason (String.fromCodePoint threw)", async () => {
    for (const name of ["&#x110000;", "&#99999999;", "&#1114112;", "&#0;", "&#xD800;", "a&#xFFFF;", "&#x1F;", `${"&#x10FFFF;".repeat(2)}${"9".repeat(400)}&#${"9".repeat(400)};`]) {
      const error = await inspectXlsx(named(name), 1000 * MB).catch((e: unknown) => e);
      expect(error, name).toBeInstanceOf(ImportFileError);
      expect((error as Error).message, name).toMatch(/A worksheet's name in this XLSX holds a character XML does not allow/);
    }
  });

  it("reads names' references and entities, and the workbook's date system", async () => {
    expect(await inspectXlsx(named("Caf&#233; &amp; &#x1F600; &lt;2&gt;"), 1000 * MB)).toEqual({ worksheets: [{ name: "Café & 😀 <2>", file: 1 }], date1904: false });
    expect((await inspectXlsx(named("Mac", '<workbookPr date1904="1"/>'), 1000 * MB)).date1904).toBe(true);
    expect((await inspectXlsx(named("Mac", '<workbookPr date1904="true" defaultThemeVersion="1"/>'), 1000 * MB)).date1904).toBe(true);
    expect((await inspectXlsx(named("Win", '<workbookPr date1904="0"/>'), 1000 * MB)).date1904).toBe(false);
  });

  it("refuses a name longer than 100 characters, more than 1,000 worksheets, and a workbook part of more than 1 MB", async () => {
    await expect(inspectXlsx(named("x".repeat(101)), 1000 * MB)).rejects.toThrow(/longer than 100 characters/);
    const sheets = Array.from({ length: 1_001 }, (_, i) => `<sheet name="S${i}" sheetId="${i + 1}" r:id="rId1"/>`).join("");
    const many = file(
      "many.xlsx",
      buildZip(workbookParts(sheetXml(GOOD_ROWS)).map((p) => (p.name === "xl/workbook.xml" ? { ...p, data: String(p.data).replace(/<sheets>.*<\/sheets>/, `<sheets>${sheets}</sheets>`) } : p))),
    );
    await expect(inspectXlsx(many, 1000 * MB)).rejects.toThrow(/more than 1,000 worksheets/);
    const padded = file(
      "padded-book.xlsx",
      buildZip(workbookParts(sheetXml(GOOD_ROWS)).map((p) => (p.name === "xl/workbook.xml" ? { ...p, data: String(p.data).replace("<sheets>", `${"<bookViews/>".repeat(100_000)}<sheets>`) } : p))),
    );
    await expect(inspectXlsx(padded, 1000 * MB)).rejects.toThrow(/part xl\/workbook\.xml takes 1,200,\d{3} bytes, where a spreadsheet writes a few kilobytes/);
  });
});

function column(n: number): string {
  let letters = "";
  for (let k = n; k > 0; k = Math.floor((k - 1) / 26)) letters = String.fromCharCode(65 + ((k - 1) % 26)) + letters;
  return letters;
}
