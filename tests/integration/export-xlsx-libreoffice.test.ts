import { buffer } from "node:stream/consumers";
import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { EXPORT_COLUMNS } from "@/lib/export/csv";
import { xlsxStream } from "@/lib/export/xlsx";
import { XLSX_CELL_MAX } from "@/lib/export/xlsx-text";
import { convertWithLibreOffice } from "../helpers/libreoffice";
import { fromSerial, readXlsx, type ReadCell, type ReadSheet } from "../helpers/xlsx-read";

// The export's workbook opened by LibreOffice Calc, a reader that shares no code with the
// console: every sheet, every cell as written (text that is never a formula, escapes read as
// their characters, 32,767-character cells whole, dates with their formats, booleans, the
// columns' widths), then saved by LibreOffice as XLSX (read back strictly) and as CSV, cells as shown.

type Column = (typeof EXPORT_COLUMNS)[number];
const col = (name: Column) => EXPORT_COLUMNS.indexOf(name);

const HOSTILE = [
  "=1+2", "+447700900123", "-5", "@SUM(A1:A2)", "=HYPERLINK(\"http://x.test\",\"y\")", " =padded", "\t=tabbed", "'quoted",
  "a\u0001b\u0008c\u000Bd\u000Ce\u001Ff", "line\r\nbreak\rcr\nlf", "del\u007F", "nonchar\uFFFE\uFFFF", "مرحبا بالعالم", "\u202Eevil\u202C",
  "\u200Fright-to-left mark", "_x0041_ and _x005F_", "<b>&amp;</b>", "  two leading", "trailing  ", "𝄞 astral",
  "x".repeat(XLSX_CELL_MAX), `${"é".repeat(XLSX_CELL_MAX - 1)}z`,
];
/** Days and instants as the export's query gives them, and what a person sees of them in the console's zone (UTC here). */
const DAYS = ["2027-03-31", "1900-03-01", "9999-12-31", "", "2024-02-29"];
const INSTANTS = ["2026-11-22T23:05:12.345Z", "2000-01-01T00:00:00.000Z", "2024-02-29T12:30:59.000Z"];

function row(i: number): (string | null)[] {
  const value = HOSTILE[i % HOSTILE.length]!;
  const base: Record<Column, string> = {
    id: String(i + 1), first_name: value, last_name: HOSTILE[(i + 3) % HOSTILE.length]!, branch_name: i % 4 === 0 ? "" : "Northgate",
    country_name: "United Kingdom", email: value, mobile: "+447700900123", travel_date: DAYS[i % DAYS.length]!, sheet: value,
    subscription_status: "active", is_duplicate: String(i % 2 === 0), is_mandatory: String(i % 3 === 0), created_at: INSTANTS[i % INSTANTS.length]!,
  };
  return EXPORT_COLUMNS.map((c) => base[c]);
}

const ROWS = 50;
const SHEET_ROWS = 20;
const rows = Array.from({ length: ROWS }, (_, i) => row(i));
const SHEETS = ["Subscribers", "Subscribers 2", "Subscribers 3"];

/** What a cell should read as once LibreOffice has read and rewritten it. */
function expectCell(cell: ReadCell | undefined, value: string | null, column: Column, where: string) {
  if (value === null || value === "") return expect(cell, where).toBeUndefined();
  if (column === "id") return expect(cell, where).toMatchObject({ type: "number", value: Number(value) });
  if (column === "is_duplicate" || column === "is_mandatory") {
    // LibreOffice keeps a boolean as a boolean cell, or as 1/0 with its BOOLEAN format.
    const read = cell?.type === "boolean" ? cell.value : cell?.type === "number" && /BOOLEAN/i.test(cell.format) ? cell.value === 1 : cell;
    return expect(read, where).toBe(value === "true");
  }
  if (column === "travel_date" || column === "created_at") {
    expect(cell?.type, where).toBe("number");
    const { value: serial, format } = cell as { value: number; format: string };
    const shown = fromSerial(serial).toISOString();
    const plain = format.toLowerCase().replace(/[\\"]/g, "");
    if (column === "travel_date") {
      expect(plain, where).toBe("yyyy-mm-dd");
      return expect(shown.slice(0, 10), where).toBe(value);
    }
    expect(plain, where).toBe("yyyy-mm-dd hh:mm:ss");
    // A serial is a double: LibreOffice writes it back to within a millisecond.
    return expect(Math.abs(Date.parse(shown) - Date.parse(value)), `${where}: ${shown}`).toBeLessThanOrEqual(1);
  }
  expect(cell, where).toEqual({ type: "shared", value: inLibreOffice(value) });
}

/** LibreOffice keeps a line break as a line feed: it reads CR LF and a lone CR as one (Excel keeps them). */
const inLibreOffice = (text: string) => text.replace(/\r\n?/g, "\n");

describe("the XLSX export opened by LibreOffice", () => {
  let file: Buffer;
  beforeAll(async () => {
    async function* batches() {
      for (let i = 0; i < rows.length; i += 7) yield rows.slice(i, i + 7);
    }
    file = await buffer(xlsxStream(batches(), { timeZone: "UTC", sheetRows: SHEET_ROWS }));
  });

  it("reads every sheet and cell as written, and saves a workbook a strict reader accepts", async () => {
    const saved = await convertWithLibreOffice(file, "xlsx");
    const { sheets } = await readXlsx(saved.get("export.xlsx")!);
    expect(sheets.map((s) => s.name)).toEqual(SHEETS);
    const written = (await readXlsx(file)).sheets;
    const read: ReadSheet["rows"] = [];
    const booleanColumns = /^[KL]\d+$/; // is_duplicate, is_mandatory
    for (const [k, sheet] of sheets.entries()) {
      // LibreOffice writes a boolean as the formula TRUE() or FALSE() with its value; nothing else is a formula.
      for (const f of sheet.formulaCells) expect(f, sheet.name).toMatchObject({ ref: expect.stringMatching(booleanColumns), type: "b", formula: expect.stringMatching(/^(TRUE|FALSE)\(\)$/) });
      // The columns as wide as written. (The frozen header is a view setting, which a headless LibreOffice, having no view, does not save.)
      expect(sheet.widths, sheet.name).toEqual(written[k]!.widths);
      expect(sheet.rows[0]!.map((c) => (c as { value: string }).value), sheet.name).toEqual([...EXPORT_COLUMNS]);
      read.push(...sheet.rows.slice(1));
    }
    expect(sheets.map((s) => s.rows.length)).toEqual([SHEET_ROWS + 1, SHEET_ROWS + 1, ROWS - 2 * SHEET_ROWS + 1]);
    expect(read).toHaveLength(ROWS);
    for (const [r, values] of rows.entries()) {
      for (const [i, column] of EXPORT_COLUMNS.entries()) expectCell(read[r]![i], values[i] ?? null, column, `row ${r + 1} ${column}`);
    }
  }, 240_000);

  it("shows each sheet's cells as the CSV has them: text as typed, dates in their formats, no formula run", async () => {
    const saved = await convertWithLibreOffice(file, "csv");
    expect([...saved.keys()].sort()).toEqual(SHEETS.map((s) => `export-${s}.csv`).sort());
    const shown = SHEETS.flatMap((s) => (parse(saved.get(`export-${s}.csv`)!, { relaxColumnCount: false }) as string[][]).slice(1));
    expect(shown).toHaveLength(ROWS);
    for (const [r, values] of rows.entries()) {
      const expected = values.map((v, i) => {
        const column = EXPORT_COLUMNS[i]!;
        if (v === null) return "";
        if (column === "is_duplicate" || column === "is_mandatory") return v.toUpperCase();
        if (column === "created_at") return v.slice(0, 19).replace("T", " ");
        return inLibreOffice(v);
      });
      expect(shown[r], `row ${r + 1}`).toEqual(expected);
    }
    expect(shown[0]![col("first_name")]).toBe("=1+2");
  }, 240_000);
});
