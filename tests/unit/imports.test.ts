import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { neutralised, unneutralised } from "@/lib/export/csv";
import { checkRow, excelSerialDay, parseDay, type Lookups } from "@/lib/imports/cells";
import { applyMapping, autoMapping, headerKey, headerProblems, IMPORT_FIELDS, remapForHeaders } from "@/lib/imports/fields";
import { detectDelimiter, isUtf8, sniff } from "@/lib/imports/sniff";
import { SUBSCRIBER_FIELDS } from "@/lib/subscribers/filters";

// The import's pure parts: header matching, row checks (property-based), and what a
// file is from its bytes (delimiter and encoding).

const lookups: Lookups = {
  branches: new Map([["northgate", 1]]),
  countries: new Map([
    ["united kingdom", { id: 1, code: "GB" }],
    ["gb", { id: 1, code: "GB" }],
    ["france", { id: 2, code: "FR" }],
    ["fr", { id: 2, code: "FR" }],
  ]),
};

describe("header matching", () => {
  it("matches case-, space- and punctuation-insensitively, with synonyms", () => {
    expect(headerKey(" E-Mail_Address ")).toBe("emailaddress");
    expect(autoMapping(["First Name", "Surname", "E-mail", "Phone", "Country code", "Status", "Given name", "Notes"])).toEqual([
      "first_name", "last_name", "email", "mobile", "country_name", "subscription_status", null, null,
    ]);
    expect(autoMapping(["Given name", "Family name", "Mobile number"])).toEqual(["first_name", "last_name", "mobile"]);
  });

  it("reads an export's header with no mapping: its server columns ignored", () => {
    const mapping = autoMapping([...SUBSCRIBER_FIELDS]);
    expect(headerProblems([...SUBSCRIBER_FIELDS], mapping)).toEqual([]);
    expect(SUBSCRIBER_FIELDS.filter((_, i) => mapping[i] === null)).toEqual(expect.arrayContaining(["id", "is_duplicate", "created_at"]));
    expect(mapping.filter(Boolean).sort()).toEqual([...IMPORT_FIELDS].sort());
  });

  it("maps another worksheet's header afresh, keeping the user's explicit choices for columns of the same name", () => {
    const headers = ["Given name", "Surname", "E-mail", "Phone", "Office", "Notes"];
    // The user ignored Office (else Branch), imported Notes as the sheet; Phone stayed as matched.
    const chosen = ["first_name", "last_name", "email", "mobile", null, "sheet"] as const;
    expect(autoMapping(headers)).toEqual(["first_name", "last_name", "email", "mobile", "branch_name", null]);
    // Mobile comes first in the new header: matched, not the Phone the user never chose; Office
    // stays ignored, Notes the sheet; Campaign (else the sheet) gives way to the user's Notes.
    expect(remapForHeaders({ headers, mapping: [...chosen] }, ["Campaign", "Notes", "Mobile", "Phone", "Given name", "Surname", "E-mail", "Office"])).toEqual([
      null, "sheet", "mobile", null, "first_name", "last_name", "email", null,
    ]);
    // The user mapped Phone over an automatic match, then the other worksheet has both: Phone wins.
    expect(remapForHeaders({ headers: ["Mobile", "Phone"], mapping: [null, "mobile"] }, ["Mobile", "Phone", "Email"])).toEqual([null, "mobile", "email"]);
    // Nothing in common: the new header's own mapping.
    const other = ["first_name", "last_name", "email", "mobile"];
    expect(remapForHeaders({ headers, mapping: [...chosen] }, other)).toEqual(autoMapping(other));
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...headers, "Mobile", "Status", "x"), { maxLength: 8 }), fc.array(fc.constantFrom(...IMPORT_FIELDS, null), { minLength: 6, maxLength: 6 }), (next, mapping) => {
        const result = remapForHeaders({ headers, mapping }, next);
        expect(result).toHaveLength(next.length);
        // Never a field twice from this (the user's own choices aside, which may repeat one).
        const auto = result.filter((f, i) => f !== null && !headers.includes(next[i]!));
        expect(new Set(auto).size).toBe(auto.length);
      }),
      { seed: 14, numRuns: 300 },
    );
  });

  it("says what blocks an import: required fields, a field twice, duplicate headers", () => {
    expect(headerProblems(["first_name", "last_name"], autoMapping(["first_name", "last_name"]))).toEqual([expect.stringMatching(/No column gives Email, Mobile/)]);
    expect(headerProblems(["a", "A", "email", "mobile"], ["first_name", "last_name", "email", "mobile"])[0]).toMatch(/same name: "a"/);
    expect(headerProblems(["x", "y", "email", "mobile"], ["first_name", "first_name", "email", "mobile"]).join(" ")).toMatch(/First name is filled from 2 columns/);
    expect(headerProblems([], [])).toEqual([expect.stringMatching(/no header row/)]);
  });

  it("lets the user change or ignore any column, and names a column the file lacks", () => {
    const headers = ["Name", "Last", "Mail", "Tel"];
    expect(applyMapping(headers, { Name: "first_name", Tel: null }).mapping).toEqual(["first_name", "last_name", "email", null]);
    expect(applyMapping(headers, { Nope: "email" }).problems[0]).toMatch(/does not have: "Nope"/);
  });
});

describe("row checks", () => {
  const good = { first_name: "Ann", last_name: "Lee", email: "ann@example.com", mobile: "07911 123456", country_name: "GB" };

  it("normalises mobiles with the row's country, and countries by name or code", () => {
    expect(checkRow(good, lookups)).toMatchObject({ ok: true, row: { mobile: "+447911123456", country_id: 1 } });
    expect(checkRow({ ...good, country_name: "United Kingdom" }, lookups)).toMatchObject({ ok: true });
    expect(checkRow({ ...good, country_name: "Narnia" }, lookups)).toMatchObject({ ok: false, errors: [{ field: "country_name" }, { field: "mobile" }] });
  });

  it("rejects a mobile a spreadsheet turned into a shortened number, with the reason", () => {
    for (const mobile of ["4.47E+11", "4.47911E+11", 447911123456.5]) {
      const result = checkRow({ ...good, mobile }, lookups);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.errors[0]!.message).toMatch(/spreadsheet shortened/);
    }
    expect(checkRow({ ...good, mobile: 447911123456 }, lookups)).toMatchObject({ ok: true, row: { mobile: "+447911123456" } });
  });

  it("reads dates: ISO, unambiguous day-first and month-first, Excel serials, spreadsheet dates", () => {
    expect(parseDay("2027-03-01")).toEqual({ day: "2027-03-01" });
    expect(parseDay("15/03/2027")).toEqual({ day: "2027-03-15" });
    expect(parseDay("03/15/2027")).toEqual({ day: "2027-03-15" });
    expect(parseDay("03/04/2027")).toMatchObject({ error: expect.stringMatching(/two dates/) });
    expect(parseDay(46000)).toEqual({ day: "2025-12-09" });
    expect(excelSerialDay(60)).toBeNull();
    expect(excelSerialDay(61)).toBe("1900-03-01");
    expect(parseDay(new Date(Date.UTC(2027, 0, 31)))).toEqual({ day: "2027-01-31" });
    expect(parseDay("31/02/2027")).toMatchObject({ error: expect.any(String) });
  });

  it("never throws, and a row it accepts has every required field, an E.164 mobile and a known branch (property)", () => {
    const cell = fc.oneof(fc.string({ maxLength: 30 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.date({ noInvalidDate: false }));
    const row = fc.record(
      { first_name: cell, last_name: cell, email: fc.oneof(cell, fc.emailAddress()), mobile: fc.oneof(cell, fc.constantFrom("07911 123456", "+33 6 12 34 56 78")), branch_name: cell, country_name: fc.oneof(cell, fc.constantFrom("GB", "fr", "Narnia")), travel_date: cell, subscription_status: cell, is_mandatory: cell },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(row, (values) => {
        const result = checkRow(values, lookups);
        if (!result.ok) return result.errors.length > 0 && result.errors.every((e) => e.message.length > 0);
        const r = result.row;
        return r.first_name !== "" && r.last_name !== "" && /^\+[1-9]\d{6,14}$/.test(r.mobile) && (r.branch_id === null || r.branch_id === 1) && /@/.test(r.email);
      }),
      { numRuns: 2000 },
    );
  });

  it("reads back every value the export neutralised (property)", () => {
    fc.assert(fc.property(fc.string({ maxLength: 40 }), (value) => unneutralised(neutralised(value)) === value || /'[=+\-@\t\r＝＋－＠]/.test(value)));
  });
});

describe("what a file is, from its bytes", () => {
  it("tells XLSX, old XLS, UTF-8 (with or without BOM), UTF-16 and Windows-1252 apart", () => {
    expect(sniff(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0]))).toEqual({ format: "xlsx" });
    expect(sniff(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0]))).toMatchObject({ format: "binary", reason: expect.stringMatching(/\.xls/) });
    expect(sniff(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]))).toEqual({ format: "csv", encoding: "utf-8", bom: 3 });
    expect(sniff(new Uint8Array([0xff, 0xfe, 0x61, 0]))).toEqual({ format: "csv", encoding: "utf-16le", bom: 2 });
    expect(sniff(new Uint8Array([0xfe, 0xff, 0, 0x61]))).toEqual({ format: "csv", encoding: "utf-16be", bom: 2 });
    expect(sniff(Buffer.from("name\nRenée", "utf8"))).toEqual({ format: "csv", encoding: "utf-8", bom: 0 });
    expect(sniff(Buffer.from("name\nRenée", "latin1"))).toEqual({ format: "csv", encoding: "windows-1252", bom: 0 });
    expect(sniff(Buffer.from("a,b\n", "utf16le"))).toMatchObject({ format: "binary", reason: expect.stringMatching(/UTF-16/) });
    expect(sniff(new Uint8Array())).toMatchObject({ format: "binary", reason: "The file is empty." });
  });

  it("keeps valid UTF-8 valid when the head cuts a character (property)", () => {
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 50 }), fc.nat(200), (text, cut) => {
      const bytes = Buffer.from(text, "utf8");
      return isUtf8(bytes.subarray(0, Math.min(cut, bytes.length)));
    }));
  });

  it("detects comma, semicolon and tab delimiters outside quotes", () => {
    expect(detectDelimiter("a,b,c")).toBe(",");
    expect(detectDelimiter("a;b;c")).toBe(";");
    expect(detectDelimiter("a\tb\tc")).toBe("\t");
    expect(detectDelimiter('"a;b;c",d')).toBe(",");
    expect(detectDelimiter("name")).toBe(",");
  });
});
