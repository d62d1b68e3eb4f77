import { buffer } from "node:stream/consumers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EXPORT_COLUMNS } from "@/lib/export/csv";
import { serials, SHEET_DATA_ROWS, xlsxStream } from "@/lib/export/xlsx";
import { XLSX_CELL_MAX, xlsxText } from "@/lib/export/xlsx-text";
import { fromSerial, readXlsx, unescapeXstring, unzip, type ReadCell } from "../helpers/xlsx-read";

// The export's workbook read back by a reader of our own (yauzl + a strict XML parser, not
// ExcelJS): a valid package, typed cells, text that is never a formula and reads back exactly.

type Row = (string | null)[];

/** A row as the export's query gives it (COPY text: every value a string, NULL as ""). */
function row(id: number, over: Partial<Record<(typeof EXPORT_COLUMNS)[number], string>> = {}): Row {
  const base: Record<(typeof EXPORT_COLUMNS)[number], string> = {
    id: String(id), first_name: `First${id}`, last_name: "Last", branch_name: "Northgate", country_name: "United Kingdom",
    email: `user${id}@example.com`, mobile: "+447700900123", travel_date: "2027-03-31", sheet: "Spring campaign",
    subscription_status: "active", is_duplicate: "false", is_mandatory: "true", created_at: "2026-11-22T23:05:12.345Z",
  };
  return EXPORT_COLUMNS.map((c) => over[c] ?? base[c]);
}

async function workbook(rows: Row[], options: { batch?: number; sheetRows?: number; timeZone?: string } = {}) {
  const batch = options.batch ?? 2;
  async function* batches() {
    for (let i = 0; i < rows.length; i += batch) yield rows.slice(i, i + batch);
  }
  return readXlsx(await buffer(xlsxStream(batches(), { timeZone: options.timeZone ?? "Europe/Paris", sheetRows: options.sheetRows })));
}

const text = (cell: ReadCell | undefined) => {
  if (cell?.type !== "inlineStr") throw new Error(`not an inline string: ${JSON.stringify(cell)}`);
  return cell.value;
};

const HOSTILE = [
  "=1+2", "+447700900123", "-5", "@SUM(A1:A2)", "=HYPERLINK(\"http://x.test\",\"y\")", " =padded", "\t=tabbed",
  "\uFF1Dfullwidth", "'quoted", "a\u0001b\u0008c\u000Bd\u000Ce\u001Ff", "line\r\nbreak\rcr\nlf", "del\u007F", "nonchar\uFFFE\uFFFF",
  "مرحبا بالعالم", "\u202Eevil\u202C", "\u200Fright-to-left mark", "_x0041_ and _x005F_", "_X0041_ stays", "<b>&amp;</b>",
  "  two leading", "trailing  ", "𝄞 astral", "x".repeat(XLSX_CELL_MAX),
];

describe("XLSX export writer", () => {
  it("writes a valid package: header, frozen first row, widths, typed cells, no formula", async () => {
    const { sheets, parts } = await workbook([row(1), row(2, { travel_date: "", branch_name: "", is_duplicate: "true", is_mandatory: "false" })]);
    expect([...parts.keys()].sort()).toEqual(
      ["[Content_Types].xml", "_rels/.rels", "xl/_rels/workbook.xml.rels", "xl/styles.xml", "xl/workbook.xml", "xl/worksheets/sheet1.xml"].sort());
    expect(sheets.map((s) => s.name)).toEqual(["Subscribers"]);
    const [sheet] = sheets;
    expect(sheet!.rows[0]!.map(text)).toEqual([...EXPORT_COLUMNS]);
    expect(sheet!.frozenRows).toBe(1);
    expect(sheet!.formulas).toBe(0);
    expect(sheet!.widths).toHaveLength(EXPORT_COLUMNS.length);
    for (const [i, w] of sheet!.widths.entries()) expect(w).toBeGreaterThanOrEqual(EXPORT_COLUMNS[i]!.length);
    expect(sheet!.widths[EXPORT_COLUMNS.indexOf("email")]).toBe("user1@example.com".length + 2);

    const [id, first, , branch, , , mobile, travel, , , dup, mandatory, created] = sheet!.rows[1]!;
    expect(id).toEqual({ type: "number", value: 1, format: "General" });
    expect(text(first)).toBe("First1");
    expect(text(branch)).toBe("Northgate");
    expect(text(mobile)).toBe("+447700900123");
    expect(travel).toMatchObject({ type: "number", format: "yyyy-mm-dd" });
    expect(fromSerial((travel as { value: number }).value).toISOString()).toBe("2027-03-31T00:00:00.000Z");
    expect(dup).toEqual({ type: "boolean", value: false });
    expect(mandatory).toEqual({ type: "boolean", value: true });
    // 23:05 UTC is 00:05 the next day in Paris (winter time): the cell shows the console's clock.
    expect(created).toMatchObject({ type: "number", format: "yyyy-mm-dd hh:mm:ss" });
    expect(fromSerial((created as { value: number }).value).toISOString()).toBe("2026-11-23T00:05:12.345Z");

    const second = sheet!.rows[2]!;
    expect(second[EXPORT_COLUMNS.indexOf("travel_date")]).toBeUndefined();
    expect(second[EXPORT_COLUMNS.indexOf("branch_name")]).toBeUndefined();
    expect(second[EXPORT_COLUMNS.indexOf("is_duplicate")]).toEqual({ type: "boolean", value: true });
  });

  it("keeps every hostile value as text that reads back exactly, cell by cell", async () => {
    const rows = HOSTILE.map((value, i) => row(i + 1, { first_name: value, last_name: value, sheet: value, email: value }));
    const { sheets } = await workbook(rows, { batch: 5 });
    const data = sheets[0]!.rows.slice(1);
    expect(sheets[0]!.formulas).toBe(0);
    for (const [i, value] of HOSTILE.entries()) {
      for (const field of ["first_name", "last_name", "sheet", "email"] as const) {
        expect(text(data[i]![EXPORT_COLUMNS.indexOf(field)]), `${field} ${JSON.stringify(value.slice(0, 40))}`).toBe(value);
      }
    }
  });

  it("writes the date-time in the console's time zone, summer and winter", async () => {
    const at = ["2026-03-29T00:59:59.000Z", "2026-03-29T01:00:00.000Z", "2026-10-25T00:30:00.000Z", "2026-10-25T01:30:00.000Z"];
    const { sheets } = await workbook(at.map((created_at, i) => row(i + 1, { created_at })), { timeZone: "Europe/London" });
    const shown = sheets[0]!.rows.slice(1).map((r) => fromSerial((r[12] as { value: number }).value).toISOString().slice(0, 19));
    expect(shown).toEqual(["2026-03-29T00:59:59", "2026-03-29T02:00:00", "2026-10-25T01:30:00", "2026-10-25T01:30:00"]);
    const serial = serials("Asia/Kolkata");
    expect(fromSerial(serial.instant("2026-01-01T00:00:00.000Z")!).toISOString()).toBe("2026-01-01T05:30:00.000Z");
  });

  it("writes a date a spreadsheet cannot show as one as its text: before 1900-03-01, past 9999-12-31", async () => {
    // Excel counts a 29 February 1900 that never was and LibreOffice does not: only from March 1900 do both read a serial alike.
    // The forms allow 1900 to 2100; a database restored from elsewhere may hold any day PostgreSQL does.
    const days = ["1900-01-01", "1900-02-28", "1900-03-01", "9999-12-31", "10000-01-01", "0044-03-15"];
    const at = ["1900-02-28T10:00:00.000Z", "1900-03-01T12:00:00.000Z", "9999-12-31T22:59:59.000Z", "9999-12-31T23:30:00.000Z"];
    const rows = days.map((travel_date, i) => row(i + 1, { travel_date, created_at: at[i] ?? "2026-01-01T00:00:00.000Z" }));
    const data = (await workbook(rows, { timeZone: "UTC" })).sheets[0]!.rows.slice(1);
    const travel = data.map((r) => r[EXPORT_COLUMNS.indexOf("travel_date")]!);
    expect(travel.map((c) => c.type)).toEqual(["inlineStr", "inlineStr", "number", "number", "inlineStr", "inlineStr"]);
    expect(travel.map((c) => (c.type === "number" ? fromSerial(c.value).toISOString().slice(0, 10) : text(c)))).toEqual(days);
    expect(travel[2]).toEqual({ type: "number", value: 61, format: "yyyy-mm-dd" });
    expect(travel[3]).toEqual({ type: "number", value: 2_958_465, format: "yyyy-mm-dd" });
    // 23:30 UTC on 9999-12-31 is already the year 10000 in Paris: text there, a date in UTC.
    const created = (timeZone: string) => workbook(rows.slice(0, 4), { timeZone }).then((w) => w.sheets[0]!.rows.slice(1).map((r) => r[12]!.type));
    expect(await created("UTC")).toEqual(["inlineStr", "number", "number", "number"]);
    expect(await created("Europe/Paris")).toEqual(["inlineStr", "number", "number", "inlineStr"]);
  });

  it("continues on `Subscribers 2`, … past the rows a sheet holds, each with its header", async () => {
    const rows = Array.from({ length: 7 }, (_, i) => row(i + 1));
    const { sheets } = await workbook(rows, { sheetRows: 3, batch: 2 });
    expect(sheets.map((s) => s.name)).toEqual(["Subscribers", "Subscribers 2", "Subscribers 3"]);
    expect(sheets.map((s) => s.rows.length)).toEqual([4, 4, 2]);
    for (const s of sheets) {
      expect(s.rows[0]!.map(text)).toEqual([...EXPORT_COLUMNS]);
      expect(s.frozenRows).toBe(1);
    }
    const ids = sheets.flatMap((s) => s.rows.slice(1).map((r) => (r[0] as { value: number }).value));
    expect(ids).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // Exactly full: no empty sheet after it.
    expect((await workbook(rows.slice(0, 6), { sheetRows: 3, batch: 4 })).sheets.map((s) => s.rows.length)).toEqual([4, 4]);
  });

  it("fills the first sheet to Excel's last row (1,048,576) before `Subscribers 2`, with the limit the export uses", async () => {
    // Only the id in each row, so a sheet this long is quick to write; the limit is the default, as the worker calls it.
    const total = SHEET_DATA_ROWS + 2;
    async function* ids() {
      for (let i = 0; i < total; i += 50_000) {
        yield Array.from({ length: Math.min(50_000, total - i) }, (_, j) => EXPORT_COLUMNS.map((c) => (c === "id" ? String(i + j + 1) : null)));
      }
    }
    const parts = await unzip(await buffer(xlsxStream(ids(), { timeZone: "UTC" })));
    const workbookXml = parts.get("xl/workbook.xml")!.toString("utf8");
    expect([...workbookXml.matchAll(/<sheet name="([^"]+)"/g)].map((m) => m[1])).toEqual(["Subscribers", "Subscribers 2"]);
    const first = parts.get("xl/worksheets/sheet1.xml")!.toString("utf8");
    const lastRow = first.slice(first.lastIndexOf("<row "));
    expect(lastRow).toBe(`<row r="1048576"><c r="A1048576"><v>${SHEET_DATA_ROWS}</v></c></row></sheetData></worksheet>`);
    let rowsInFirst = 0;
    for (let at = first.indexOf("<row "); at >= 0; at = first.indexOf("<row ", at + 1)) rowsInFirst++;
    expect(rowsInFirst).toBe(1_048_576);
    const second = parts.get("xl/worksheets/sheet2.xml")!.toString("utf8");
    const cellsA = [...second.matchAll(/<c r="A(\d+)"[^>]*>(?:<v>(\d+)<\/v>|<is><t>(\w+)<\/t><\/is>)/g)].map((m) => [m[1], m[2] ?? m[3]]);
    expect(cellsA).toEqual([["1", "id"], ["2", String(SHEET_DATA_ROWS + 1)], ["3", String(SHEET_DATA_ROWS + 2)]]);
  }, 180_000);

  it("writes a header-only workbook when no row matches", async () => {
    const { sheets } = await workbook([]);
    expect(sheets).toHaveLength(1);
    expect(sheets[0]!.rows).toHaveLength(1);
  });

  it("ends the rows' source and fails the stream when the source fails", async () => {
    let closed = false;
    async function* failing() {
      try {
        yield [row(1)];
        throw new Error("the database went away");
      } finally {
        closed = true;
      }
    }
    await expect(buffer(xlsxStream(failing(), { timeZone: "UTC" }))).rejects.toThrow("the database went away");
    expect(closed).toBe(true);
  });

  it("reads rows only as fast as the zip is read: a reader that stops stops the rows (memory does not grow with them)", async () => {
    let read = 0;
    async function* endless() {
      for (let i = 0; ; i += 100) {
        read++;
        yield Array.from({ length: 100 }, (_, j) => row(i + j + 1));
      }
    }
    const stream = xlsxStream(endless(), { timeZone: "UTC" });
    let bytes = 0;
    stream.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > 1 << 20) stream.pause();
    });
    await expect.poll(() => stream.isPaused(), { timeout: 20_000 }).toBe(true);
    // The zip's buffers (archiver's 1 MB each way, deflate's) fill, then nothing more is read.
    let settled = -1;
    await expect
      .poll(async () => {
        const before = read;
        await new Promise((r) => setTimeout(r, 300));
        return (settled = before) === read;
      }, { timeout: 20_000 })
      .toBe(true);
    await new Promise((r) => setTimeout(r, 1000));
    expect(read).toBe(settled);
    // Bounded by the buffers' bytes: at this compression, well under a sheet of rows.
    expect(read * 100).toBeLessThan(100_000);
    stream.destroy();
  }, 60_000);

  it("stops reading rows when its reader gives up", async () => {
    let read = 0;
    let closed = false;
    async function* endless() {
      try {
        for (let i = 1; ; i++) {
          read++;
          yield [row(i)];
        }
      } finally {
        closed = true;
      }
    }
    const stream = xlsxStream(endless(), { timeZone: "UTC" });
    await new Promise((resolve) => stream.once("data", resolve));
    stream.destroy();
    await expect.poll(() => closed).toBe(true);
    const after = read;
    await new Promise((r) => setTimeout(r, 50));
    expect(read).toBe(after);
  });
});

describe("XLSX text cells", () => {
  it("escape what XML cannot carry and read back as written (property)", () => {
    const unit = fc.constantFrom("a", " ", "_", "x", "0", "A", "\u0000", "\u0001", "\r", "\n", "\t", "\u007F", "\uFFFE", "\uFFFF", "é", "<", "&");
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 40 }), (value) => {
        const stored = xlsxText(value);
        expect(stored).not.toMatch(/[\u0000-\u0008\u000B-\u001F\uFFFE\uFFFF]/);
        expect(unescapeXstring(stored)).toBe(value);
      }),
    );
  });

  it("cut a cell at Excel's 32,767 characters, never inside an escape or a character", () => {
    expect(xlsxText("y".repeat(XLSX_CELL_MAX))).toHaveLength(XLSX_CELL_MAX);
    expect(xlsxText("y".repeat(XLSX_CELL_MAX + 5))).toHaveLength(XLSX_CELL_MAX);
    const escaped = xlsxText(`${"y".repeat(XLSX_CELL_MAX - 3)}\u0001`);
    expect(escaped.endsWith("y")).toBe(true);
    expect(escaped).toHaveLength(XLSX_CELL_MAX - 3);
    const astral = xlsxText(`${"y".repeat(XLSX_CELL_MAX - 1)}𝄞`);
    expect(astral).toHaveLength(XLSX_CELL_MAX - 1);
  });

});
