import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as importPOST } from "@/app/api/v1/subscribers/imports/route";
import type { ImportStatus } from "@/lib/imports/imports";
import { actAs, testDbKinds } from "../helpers/db";
import { closeExportSuite, openExportSuite, type ExportSuite } from "../helpers/export-test";

// An XLSX's dates without its styles: the reader no longer reads which numbers a format makes
// dates, so a date cell is its serial number; in the travel date's column it is that day, in
// the 1900 date system or the 1904 one (old Mac Excel), in the preview and the import.

type Answer = { status: number; body: ImportStatus & { error?: { code: string; message: string } } };

async function preview(s: ExportSuite, book: ExcelJS.Workbook): Promise<Answer> {
  const data = new FormData();
  data.set("dry_run", "true");
  data.set("file", new Blob([await book.xlsx.writeBuffer()]), "dates.xlsx");
  actAs(s.staff);
  const response = await importPOST(new Request("http://localhost/api/v1/subscribers/imports", { method: "POST", body: data }), {});
  return { status: response.status, body: await response.json() };
}

function workbook(date1904: boolean): ExcelJS.Workbook {
  const book = new ExcelJS.Workbook();
  book.properties.date1904 = date1904;
  const sheet = book.addWorksheet("People");
  sheet.addRow(["first_name", "last_name", "email", "mobile", "travel_date", "sheet"]);
  // A date cell (ExcelJS writes its serial in the workbook's date system, with a date format), a
  // bare serial, and a date typed as text.
  sheet.addRow(["Jo", "Ng", "jo@dates.test", "+447911100401", new Date(Date.UTC(2027, 4, 6)), "Dates"]);
  sheet.addRow(["Kim", "Oh", "kim@dates.test", "+447911100402", 46000, "Dates"]);
  sheet.addRow(["Lou", "Py", "lou@dates.test", "+447911100403", "2027-01-31", "Dates"]);
  sheet.getColumn(5).numFmt = "yyyy-mm-dd";
  return book;
}

for (const kind of testDbKinds()) {
  describe(`an XLSX's dates on ${kind}`, () => {
    let s: ExportSuite;
    beforeAll(async () => {
      s = await openExportSuite(kind, 0);
    });
    afterAll(async () => closeExportSuite(s));

    it("reads a date cell and a serial number in the travel date's column as their day, shown as the day in the preview", async () => {
      const answer = await preview(s, workbook(false));
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body).toMatchObject({ total_rows: 3, imported_rows: 3, rejected_rows: 0 });
      expect(answer.body.preview.map((r) => r.cells[4])).toEqual(["2027-05-06", "2025-12-09", "2027-01-31"]);
    });

    it("counts a 1904 workbook's serials from 1904-01-01", async () => {
      const answer = await preview(s, workbook(true));
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body).toMatchObject({ total_rows: 3, imported_rows: 3, rejected_rows: 0 });
      // 46000 days after 1904-01-01 is 2029-12-10: four years and a day after the same serial from 1900.
      expect(answer.body.preview.map((r) => r.cells[4])).toEqual(["2027-05-06", "2029-12-10", "2027-01-31"]);
    });

    it("rejects a number in the travel date's column that is no spreadsheet date, with the reason", async () => {
      const book = workbook(false);
      book.getWorksheet("People")!.addRow(["Max", "Ro", "max@dates.test", "+447911100404", -5, "Dates"]);
      const answer = await preview(s, book);
      expect(answer.body).toMatchObject({ total_rows: 4, imported_rows: 3, rejected_rows: 1 });
      expect(answer.body.preview[3]).toMatchObject({ cells: expect.arrayContaining(["-5"]), errors: { 4: "This number is not a spreadsheet date." } });
    });
  });
}
