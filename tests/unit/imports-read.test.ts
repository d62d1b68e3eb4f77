import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import fc from "fast-check";
import Papa from "papaparse";
import { afterAll, describe, expect, it } from "vitest";
import type { Cell } from "@/lib/imports/cells";
import { csvRows, ImportFileError, lineOf, MAX_ROWS, xlsxLimits, xlsxRows } from "@/lib/imports/read";
import { buildZip, IMPORT_HEADER, lyingXlsx, sharedStringsXml, sheetXml, workbookParts } from "../helpers/zip";

// The import's readers against hostile files: a zip whose headers lie about
// its sizes, a cell of megabytes, XML that is not a worksheet, a quote never closed, a row of
// megabytes; and the line each row is on, as the person who made the file sees it.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "imports-read-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const SHEET = { name: "Sheet1", file: 1 };
const MB = 1e6;
/** The configured limits (the defaults here), with the most all parts may inflate to. */
const unpacked = (maxUnpacked: number) => ({ ...xlsxLimits(), maxUnpacked });

function file(name: string, bytes: Buffer): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, bytes);
  return p;
}

async function all<T extends Cell[]>(rows: AsyncGenerator<T>): Promise<{ cells: T; line: number | undefined }[]> {
  const out: { cells: T; line: number | undefined }[] = [];
  for await (const r of rows) out.push({ cells: r, line: lineOf(r) });
  return out;
}

const csv = (text: string | Buffer, delimiter = ",", chunk = 1 << 16) => {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, "utf8");
  const chunks = Array.from({ length: Math.ceil(bytes.length / chunk) }, (_, i) => bytes.subarray(i * chunk, (i + 1) * chunk));
  return csvRows(Readable.from(chunks), { encoding: "utf-8", bom: 0, delimiter });
};

describe("an XLSX whose zip lies, or holds a giant cell", () => {
  it("refuses a zip bomb with false sizes at its first lie, before inflating it", async () => {
    // 50 MB of shared string, in a file of some 50 KB that declares 20 KB for it.
    const bomb = lyingXlsx(50 * MB);
    expect(bomb.length).toBeLessThan(100_000);
    const before = process.memoryUsage().rss;
    const started = Date.now();
    const error = await all(xlsxRows(file("bomb.xlsx", bomb), SHEET, unpacked(1000 * MB))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as Error).message).toMatch(/xl\/sharedStrings\.xml unpacks to more than the 20,000 bytes its zip declares/);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * MB);
  });

  it("counts what really inflates against the limit, whatever each part declares", async () => {
    // Honest sizes this time, under the limit part by part, past it all together.
    const sheet = sheetXml([IMPORT_HEADER, ["Ann", "Lee", "ann@x.test", "+447911123456"]]);
    const padding = Array.from({ length: 3 }, () => " ".repeat(MB / 2)).join("<!---->");
    const parts = workbookParts(sheet.replace("</worksheet>", `${padding}</worksheet>`), sharedStringsXml(["x"]).replace("</sst>", `${padding}</sst>`));
    const error = await all(xlsxRows(file("big.xlsx", buildZip(parts)), SHEET, unpacked(2 * MB))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as Error).message).toMatch(/unpacks to more than the 2 MB accepted/);
  });

  it("refuses a cell or shared string of more than a megabyte, honestly declared, without building it", async () => {
    const huge = "A".repeat(3 * MB);
    const shared = file("shared.xlsx", buildZip(workbookParts(sheetXml([IMPORT_HEADER], { row: 1, xml: '<c r="E1" t="s"><v>0</v></c>' }), sharedStringsXml([huge]))));
    await expect(all(xlsxRows(shared, SHEET, unpacked(1000 * MB)))).rejects.toThrow(/holds more than 1 MB of text/);
    const inline = file("inline.xlsx", buildZip(workbookParts(sheetXml([IMPORT_HEADER, ["Ann", "Lee", "a@x.test", huge]]))));
    await expect(all(xlsxRows(inline, SHEET, unpacked(1000 * MB)))).rejects.toThrow(/holds more than 1 MB of text/);
    // Split into runs by comments the reader skips (a comment may even say </c>): the same cell.
    const runs = Array.from({ length: 6 }, () => "B".repeat(300_000)).join("<!-- x > </c> -->");
    const commented = file("runs.xlsx", buildZip(workbookParts(sheetXml([IMPORT_HEADER], { row: 1, xml: `<c r="E1" t="inlineStr"><is><t>${runs}</t></is></c>` }))));
    await expect(all(xlsxRows(commented, SHEET, unpacked(1000 * MB)))).rejects.toThrow(/holds more than 1 MB of text/);
  });

  it("answers a worksheet that is not XML with the reader's reason, as the file's fault", async () => {
    const broken = file("broken.xlsx", buildZip(workbookParts('<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>first_name</t></is></c></row><row r="2"></rowx></sheetData></worksheet>')));
    const error = await all(xlsxRows(broken, SHEET, unpacked(1000 * MB))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as Error).message).toMatch(/^This XLSX cannot be read \(.+\)/);
    // Cut off in the middle of its XML (the zip itself whole): refused, not read as far as it goes.
    const cut = file("cut.xlsx", buildZip(workbookParts(sheetXml([IMPORT_HEADER, ["Ann", "Lee", "a@x.test", "1"], ["Bob", "Roe", "b@x.test", "2"]]).slice(0, -60))));
    await expect(all(xlsxRows(cut, SHEET, unpacked(1000 * MB)))).rejects.toThrow(/xl\/worksheets\/sheet1\.xml ends in the middle/);
    const noRef = file("noref.xlsx", buildZip(workbookParts('<worksheet><sheetData><row r="1"><c r="ZZZZZZ1"><v>1</v></c></row></sheetData></worksheet>')));
    await expect(all(xlsxRows(noRef, SHEET, unpacked(1000 * MB)))).rejects.toBeInstanceOf(ImportFileError);
  });

  it("reads what a spreadsheet wrote: shared strings of any script whole, across every chunk boundary", async () => {
    const names = Array.from({ length: 3000 }, (_, i) => `Zoë Ñúñez Дмитрий 山田 ${i} 😀`);
    const sheet = sheetXml([], undefined).replace(
      "<sheetData></sheetData>",
      `<sheetData>${names.map((_, i) => `<row r="${i + 1}"><c r="A${i + 1}" t="s"><v>${i}</v></c></row>`).join("")}</sheetData>`,
    );
    const rows = await all(xlsxRows(file("scripts.xlsx", buildZip(workbookParts(sheet, sharedStringsXml(names)))), SHEET, unpacked(1000 * MB)));
    expect(rows.map((r) => r.cells[0])).toEqual(names);
  });
});

describe("text escapes in an XLSX", () => {
  it("reads `_xHHHH_` as the character it stands for, in inline and shared strings alike (ST_Xstring)", async () => {
    // As Excel and the console's export write them: a carriage return, a text typed as `_x0041_` (its `_` escaped), lower-case hex.
    const stored = ["line_x000D_\nbreak", "_x005F_x0041_ typed", "tab\t_x0001_", "_x00e9_", "plain_x", "_x12_"];
    const read = ["line\r\nbreak", "_x0041_ typed", "tab\t\u0001", "é", "plain_x", "_x12_"];
    const inline = sheetXml([stored]);
    const shared = sheetXml([], undefined).replace(
      "<sheetData></sheetData>",
      `<sheetData><row r="1">${stored.map((_, i) => `<c r="${String.fromCharCode(65 + i)}1" t="s"><v>${i}</v></c>`).join("")}</row></sheetData>`,
    );
    for (const [name, bytes] of [["inline.xlsx", buildZip(workbookParts(inline))], ["shared.xlsx", buildZip(workbookParts(shared, sharedStringsXml(stored)))]] as const) {
      const rows = await all(xlsxRows(file(name, bytes), SHEET, unpacked(1000 * MB)));
      expect(rows.map((r) => r.cells), name).toEqual([read]);
    }
  });
});

describe("line numbers", () => {
  it("gives an XLSX row its row number, empty rows skipped", async () => {
    const sheet = sheetXml([IMPORT_HEADER, ["Ann", "Lee", "a@x.test", "1"], null, null, ["Bob", "Roe", "b@x.test", "2"]]);
    const rows = await all(xlsxRows(file("gaps.xlsx", buildZip(workbookParts(sheet))), SHEET, unpacked(1000 * MB)));
    expect(rows.map((r) => [r.cells[0], r.line])).toEqual([["first_name", 1], ["Ann", 2], ["Bob", 5]]);
  });

  it("gives a CSV record the physical line it starts on: blank lines and quoted line breaks counted", async () => {
    const text = 'a,b\r\n\r\n"two\r\nlines",x\r\n  ,\r\nc,"d"\r\n"three\nwhole\nlines",y\r\nlast,z';
    const rows = await all(csv(text, ",", 5));
    expect(rows.map((r) => [r.cells, r.line])).toEqual([
      [["a", "b"], 1],
      [["two\r\nlines", "x"], 3],
      [["c", "d"], 6],
      [["three\nwhole\nlines", "y"], 7],
      [["last", "z"], 10],
    ]);
    // A file whose lines end in a lone CR (old Mac Excel) reads the same way.
    expect((await all(csv("a;b\r1;2\r\r3;4\r", ";"))).map((r) => [r.cells, r.line])).toEqual([[["a", "b"], 1], [["1", "2"], 2], [["3", "4"], 4]]);
  });
});

describe("what a spreadsheet's CSV holds", () => {
  it("passes ragged rows through whole, for the import to reject one by one", async () => {
    const rows = await all(csv("a,b,c\n1,2\n1,2,3,4\nx,y,z\n"));
    expect(rows.map((r) => [r.cells, r.line])).toEqual([[["a", "b", "c"], 1], [["1", "2"], 2], [["1", "2", "3", "4"], 3], [["x", "y", "z"], 4]]);
  });

  it("reads a quote inside an unquoted cell as a character, a doubled quote inside a quoted one as one, and skips a byte order mark", async () => {
    const rows = await all(csv('\ufeffname,height\nThe "Boss",5\'10"\n"Say ""hi""",1\n'));
    expect(rows.map((r) => r.cells)).toEqual([["name", "height"], ['The "Boss"', `5'10"`], ['Say "hi"', "1"]]);
  });
});

describe("the most rows a spreadsheet holds", () => {
  it("reads 1,048,576 rows, its header included, and refuses the file at the next one", async () => {
    const lines = function* () {
      yield Buffer.from("first_name\n");
      // 1,048,576 rows under the header: one more than a spreadsheet holds with it.
      for (let i = 0; i < 1024; i++) yield Buffer.from(`r${i}\n`.repeat(1024));
    };
    let read = 0;
    const rows = csvRows(Readable.from(lines()), { encoding: "utf-8", bom: 0, delimiter: "," });
    const error = await (async () => {
      while (!(await rows.next()).done) read++;
    })().catch((e: unknown) => e);
    expect(read).toBe(MAX_ROWS);
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as Error).message).toBe("The file has more than 1,048,576 rows (its header included), the most a spreadsheet holds: split it into files of fewer rows. Nothing was imported.");
  }, 60_000);
});

describe("a CSV record never swallows the file", () => {
  it("stops at a quote never closed, naming its line, without reading the rest", async () => {
    let read = 0;
    const lines = function* () {
      yield Buffer.from('first_name,last_name,email,mobile\n"Open,Lee,a@x.test,1\n');
      for (let i = 0; i < 2_000_000; i++) {
        const chunk = Buffer.from(`Name${i},Lee,n${i}@x.test,+4479111${String(i).padStart(5, "0")}\n`.repeat(100));
        read += chunk.length;
        yield chunk;
      }
    };
    const rows = csvRows(Readable.from(lines()), { encoding: "utf-8", bom: 0, delimiter: "," });
    await expect(all(rows)).rejects.toThrow(/A quote opened on line 2 is not closed within 1,048,576 characters/);
    expect(read).toBeLessThan(4 * MB);
    // At the end of a small file: the same reason.
    await expect(all(csv('a,b\nx,y\n"Open,z\nmore,lines\n'))).rejects.toThrow(/A quote opened on line 3 is never closed/);
  });

  it("stops at a row longer than the bound, quotes or none", async () => {
    await expect(all(csv(`a,b\nok,fine\n${"x".repeat(1_100_000)},y\n`))).rejects.toThrow(/The row on line 3 is longer than 1,048,576 characters/);
    await expect(all(csv(`a,b\n${"x".repeat(1_100_000)}`))).rejects.toThrow(/The row on line 2 is longer/);
    const error = await all(csv(`a,b\n"${"x".repeat(1_100_000)}",y\n`)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportFileError);
  });

  it("reads back what Papa Parse writes, cut into any chunks, with any delimiter", () => {
    const cell = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('"', '""', "a,b", "x;y", "t\tu", "line\nbreak", "cr\r\nlf", " ", "'=1"));
    return fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(cell, { minLength: 3, maxLength: 3 }), { minLength: 1, maxLength: 12 }),
        fc.constantFrom(",", ";", "\t"),
        fc.integer({ min: 1, max: 40 }),
        async (rows, delimiter, chunk) => {
          const text = Papa.unparse(rows, { delimiter, newline: "\r\n" });
          const read = (await all(csv(text, delimiter, chunk))).map((r) => r.cells);
          expect(read).toEqual(rows.filter((r) => r.some((c) => c.trim() !== "")));
        },
      ),
      { seed: 14, numRuns: 300 },
    );
  });
});
