import fc from "fast-check";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { autoMapping, headerWarnings } from "@/lib/imports/fields";
import { sheetOfFile } from "@/lib/imports/run";
import { sniff } from "@/lib/imports/sniff";
import { uploadedFileName } from "@/lib/imports/upload";
import { SUBSCRIBER_FIELDS } from "@/lib/subscribers/filters";
import { unsafeTextProblems, withoutUnsafeText } from "@/lib/validation/text";

// What an upload brings besides rows: a file name from anyone's disk, made to pass
// the console's text rule before it names a sheet; the columns an import will leave out, said
// before it runs; and files that are plainly not sheets, refused saying what they are, while
// every real CSV still reads.

const bytes = (s: string | number[]) => (typeof s === "string" ? new Uint8Array(Buffer.from(s, "utf8")) : new Uint8Array(s));

/** Names made of what the rule is about: controls (C0, C1), separators, direction controls, halves of a surrogate pair, invisible characters, spaces, letters. */
const hostileName = fc
  .array(fc.constantFrom("a", "é", "山", "😀", "\ud83d", "\ude00", " ", "\t", "\u0000", "\u0007", "\u001f", "\u007f", "\u0085", "\u009f", "\u2028", "\u202e", "\u2066", "\u200b", "\u200c", "\u200d", "\u200f", "\u061c", "\ufeff", ".", "/", "\\"), { maxLength: 40 })
  .map((parts) => parts.join(""));

describe("a file's name, under the text rule", () => {
  it("takes out what the rule refuses, whatever the name", () => {
    fc.assert(
      fc.property(hostileName, (name) => {
        expect(unsafeTextProblems(withoutUnsafeText(name))).toEqual([]);
        expect(unsafeTextProblems(sheetOfFile(name))).toEqual([]);
        expect(unsafeTextProblems(uploadedFileName(name))).toEqual([]);
      }),
      { seed: 14, numRuns: 300 },
    );
  });

  it("keeps every script, and only trims a name the rule already accepts", () => {
    expect(sheetOfFile(uploadedFileName("Café été.csv"))).toBe("Café été");
    expect(sheetOfFile(uploadedFileName("C:\\Users\\zoë\\Лето 2027 山田.xlsx"))).toBe("Лето 2027 山田");
    expect(sheetOfFile(uploadedFileName("evil\u202egpj.csv"))).toBe("evilgpj");
    expect(sheetOfFile(uploadedFileName("a\u0085b\u200b.csv"))).toBe("ab");
    expect(uploadedFileName("\u202e\u0007")).toBe("upload");
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 30 }), (name) => {
        if (unsafeTextProblems(name).length === 0) expect(withoutUnsafeText(name)).toBe(name.trim());
      }),
      { seed: 14, numRuns: 1000 },
    );
    // Cut at 100 characters in the middle of an emoji: the half left is taken out, not kept broken.
    expect(unsafeTextProblems(sheetOfFile(`${"x".repeat(99)}😀.csv`))).toEqual([]);
  });
});

describe("columns not imported", () => {
  it("names the columns no field is filled from, without the export's own server columns", () => {
    const headers = ["First name", "Last name", "Email", "Mobile", "salary", "Notes", "id", "is_duplicate", "created_at", ""];
    expect(headerWarnings(headers, autoMapping(headers))).toEqual([`Columns not imported: "salary", "Notes", column 10 (no name) (no field matches them: map one to a field to import it).`]);
    expect(headerWarnings([...SUBSCRIBER_FIELDS], autoMapping([...SUBSCRIBER_FIELDS]))).toEqual([]);
    expect(headerWarnings(["first_name", "salary"], autoMapping(["first_name", "salary"]))).toEqual([`Column not imported: "salary" (no field matches it: map it to a field to import it).`]);
  });

  it("flags a second column matching a field another already fills", () => {
    const headers = ["First name", "Last name", "Email", "E-mail", "Mobile", "Phone"];
    expect(headerWarnings(headers, autoMapping(headers))).toEqual([
      `"E-mail" also looks like Email, which "Email" fills: it is not imported (map it instead if it is the right column).`,
      `"Phone" also looks like Mobile, which "Mobile" fills: it is not imported (map it instead if it is the right column).`,
    ]);
    // A column the user chose to ignore is said too; one mapped is not.
    expect(headerWarnings(["a", "Mobile"], ["first_name", null])).toEqual([`Column not imported: "Mobile" (no field matches it: map it to a field to import it).`]);
  });
});

describe("what is not a sheet", () => {
  const refused = (head: Uint8Array) => {
    const s = sniff(head);
    return s.format === "binary" ? s.reason : null;
  };

  it("refuses other formats and text that is JSON, XML or HTML, saying it is neither CSV nor XLSX", () => {
    const pdf = "%PDF-1.7\n%\u00e2\u00e3\u00cf\u00d3\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n";
    expect(refused(bytes(pdf))).toMatch(/^This is a PDF document, neither CSV nor XLSX/);
    expect(refused(bytes('[{"first_name": "Ann", "email": "ann@x.test"}]'))).toMatch(/^This is JSON, neither CSV nor XLSX/);
    expect(refused(bytes('  {\n  "rows": []\n}'))).toMatch(/^This is JSON/);
    expect(refused(bytes("[1, 2, 3]"))).toMatch(/^This is JSON/);
    expect(refused(bytes('<?xml version="1.0"?>\n<Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet">'))).toMatch(/^This is XML or HTML/);
    expect(refused(bytes("<!DOCTYPE html><html><body>first_name,last_name</body></html>"))).toMatch(/^This is XML or HTML/);
    expect(refused(bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]))).toMatch(/^This is a PNG image/);
    expect(refused(bytes([0xff, 0xd8, 0xff, 0xe0, 0x10, 0x4a, 0x46, 0x49, 0x46]))).toMatch(/^This is a JPEG image/);
    expect(refused(bytes([0x1f, 0x8b, 0x08, 0x00, 0x12]))).toMatch(/^This is a gzip archive/);
    expect(refused(bytes("{\\rtf1\\ansi first_name,last_name}"))).toMatch(/^This is an RTF document/);
    // Binary without a NUL in its head: control characters text never has.
    const noisy = Array.from({ length: 4000 }, (_, i) => (i * 37) % 251 || 1);
    expect(refused(bytes(noisy))).toMatch(/neither CSV nor XLSX/);
  });

  it("still reads every real CSV: brackets, braces and odd characters where a header may have them", () => {
    for (const text of [
      "[Email],[First name],[Last name],[Mobile]\r\nann@x.test,Ann,Lee,07911 123456\r\n",
      "{id},first_name\n1,Ann\n",
      '"[1]",name\n',
      "first_name;last_name\nZoë;Ñúñez\n\u001a",
      "\ufefffirst_name,last_name\nAnn,Lee\n",
      "Name\tNotes\nAnn\tone\u000bline\fmore\n",
      "%,first_name\n5,Ann\n",
    ]) {
      expect(sniff(bytes(text)), text).toMatchObject({ format: "csv" });
    }
    expect(sniff(new Uint8Array(Buffer.from("first_name,last_name\r\nRenée,Côté\r\n", "latin1")))).toMatchObject({ format: "csv", encoding: "windows-1252" });
    const cell = fc.string({ unit: "grapheme", maxLength: 12 });
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 2, maxLength: 5 }), { minLength: 1, maxLength: 8 }), fc.constantFrom(",", ";", "\t"), (rows, delimiter) => {
        const text = Papa.unparse(rows, { delimiter });
        if (text === "" || /^\s*[[{<]/.test(text)) return; // empty, or the cases above
        expect(sniff(bytes(text))).toMatchObject({ format: "csv" });
      }),
      { seed: 14, numRuns: 1000 },
    );
  });
});
