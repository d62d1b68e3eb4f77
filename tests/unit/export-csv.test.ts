import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvHead, csvLines, EXPORT_COLUMNS, neutralised } from "@/lib/export/csv";
import { isJobId, newJobId } from "@/lib/jobs/ids";

// The CSV writer, checked against a strict parser: every value reads back exactly (formulas with
// their neutralising apostrophe), whatever it holds.

type Cell = string | null;

/** A whole file as the worker writes it: the head, then the rows in batches of any size. */
async function toCsv(rows: Cell[][], batch = 3): Promise<Buffer> {
  const parts = [csvHead()];
  for (let i = 0; i < rows.length; i += batch) parts.push(csvLines(rows.slice(i, i + batch)));
  return Buffer.from(parts.join(""), "utf8");
}

/** Strict: RFC 4180 quotes only, the same column count everywhere, the BOM stripped. */
const strictParse = (bytes: Buffer) =>
  parse(bytes, { bom: true, relax_quotes: false, relax_column_count: false, encoding: "utf8" }) as string[][];

const SPECIALS = ["=", "+", "-", "@", "\t", "\r", "\n", "\r\n", '"', ",", ";", "'", " ", "é", "Ä", "𝄞", "\uFF1D", "\uFF0B", "\uFF0D", "\uFF20", "a", "1"];
const cell: fc.Arbitrary<Cell> = fc.oneof(
  fc.constant(null),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.string({ unit: fc.constantFrom(...SPECIALS), maxLength: 12 }),
);
const row = fc.array(cell, { minLength: EXPORT_COLUMNS.length, maxLength: EXPORT_COLUMNS.length });

const SEPARATORS = [",", ";", "\t"] as const;
/** A cell that starts a formula once leading blanks (and an opening quote) are dropped. */
const STARTS_FORMULA = /^[ \t\r\n]*"?[ \t\r\n]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/;

/**
 * Every cell a spreadsheet could see in `text` with `delimiter` as separator: as csv-parse reads
 * it (relaxed about stray quotes as Excel is; CR, LF or CRLF end a line), as Excel does (a quote
 * opens only at a cell's start, text after the closing quote is kept, an unclosed quote runs to
 * the end of the file: csv-parse refuses that last case), and as a reader that ignores quotes and
 * splits at every separator and line end.
 */
function cellsAsRead(text: string, delimiter: string): string[] {
  const body = text.replace(/^\uFEFF/, "");
  let parsed: string[] = [];
  try {
    const options = { delimiter, record_delimiter: ["\r\n", "\n", "\r"], relax_quotes: true, relax_column_count: true };
    parsed = (parse(body, options) as string[][]).flat();
  } catch (error) {
    if ((error as { code?: string }).code !== "CSV_QUOTE_NOT_CLOSED") throw error;
  }
  const raw = body.split(new RegExp(`[\r\n${delimiter === "\t" ? "\\t" : delimiter}]`));
  return [...parsed, ...excelCells(body, delimiter), ...raw];
}

/** The lenient reading of spreadsheets: quotes honoured at a cell's start only, never refused. */
function excelCells(body: string, delimiter: string): string[] {
  const cells: string[] = [];
  let i = 0;
  while (i <= body.length) {
    let cell = "";
    if (body[i] === '"') {
      for (i++; i < body.length; i++) {
        if (body[i] !== '"') cell += body[i];
        else if (body[i + 1] === '"') {
          cell += '"';
          i++;
        } else break;
      }
      i++;
    }
    while (i < body.length && body[i] !== delimiter && body[i] !== "\r" && body[i] !== "\n") cell += body[i++];
    cells.push(cell);
    i += body.startsWith("\r\n", i) ? 2 : 1;
  }
  return cells;
}

describe("export CSV", () => {
  it("starts with a UTF-8 BOM and docs/SPEC.md's field names", async () => {
    const bytes = await toCsv([]);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    // docs/SPEC.md's field names, in its order.
    expect(bytes.subarray(3).toString("utf8")).toBe(
      "id,first_name,last_name,branch_name,country_name,email,mobile,travel_date,sheet,subscription_status,is_duplicate,is_mandatory,created_at\r\n",
    );
  });

  it("reads back every value through a strict parser, formulas neutralised", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(row, { maxLength: 20 }), async (rows) => {
        const [header, ...parsed] = strictParse(await toCsv(rows));
        expect(header).toEqual([...EXPORT_COLUMNS]);
        expect(parsed).toEqual(rows.map((r) => r.map((v) => (v === null ? "" : neutralised(v)))));
      }),
      { numRuns: 300 },
    );
  });

  // Issue 19, point 3: Excel in a `;` locale splits at `;`, others at tab; some readers ignore
  // quotes or trim spaces. Read the file every such way: no cell may start a formula.
  it.each(SEPARATORS)("no cell starts a formula when the file is read with %j as separator", async (delimiter) => {
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 10 }), async (rows) => {
        const text = (await toCsv(rows)).toString("utf8");
        for (const c of cellsAsRead(text, delimiter)) expect(c, JSON.stringify(text)).not.toMatch(STARTS_FORMULA);
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ["x;=1+1;", "x;'=1+1;"],
    ["a\t=1", "a\t'=1"],
    ["a,-1", "a,'-1"],
    ["a\n@x", "a\n'@x"],
    ["a\r\n+1", "a\r\n'+1"],
    ["a; =1", "a; '=1"],
    ['a"=1', `a"'=1`],
    [" =1", " '=1"],
    ["\t\t=1", "'\t'\t'=1"],
    ["a;b", "a;b"],
    ["2024-01-31", "2024-01-31"],
  ])("writes %j so that it reads back as %j, and quoted", async (value, expected) => {
    const text = (await toCsv([[value, ...Array(12).fill(null)]])).toString("utf8");
    const [, [first]] = strictParse(Buffer.from(text)) as [string[], string[]];
    expect(first).toBe(expected);
    if (/[,;\t\r\n"]/.test(value)) expect(text.split("\r\n")[1]!.startsWith('"')).toBe(true);
  });

  it.each([
    ["=1+2", "'=1+2"],
    ['=HYPERLINK("http://evil.test","x")', `'=HYPERLINK("http://evil.test","x")`],
    ["+44 7700 900123", "'+44 7700 900123"],
    ["-2", "'-2"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\tcmd", "'\tcmd"],
    ["\rcmd", "'\rcmd"],
    ["＝1", "'＝1"],
    ["a=1", "a=1"],
    ["Zoë", "Zoë"],
  ])("writes %j so that it reads back as %j", async (value, expected) => {
    const [, [first]] = strictParse(await toCsv([[value, ...Array(12).fill(null)]])) as [string[], string[]];
    expect(first).toBe(expected);
  });
});

describe("export ids", () => {
  it("are 128 random bits in base64url, and nothing else passes as one", () => {
    const ids = new Set(Array.from({ length: 1000 }, newJobId));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(isJobId(id)).toBe(true);
    expect(Buffer.from([...ids][0]!, "base64url")).toHaveLength(16);
    for (const bad of ["../etc/passwd", "", "a".repeat(21), `${"a".repeat(21)}/`, null, 42]) expect(isJobId(bad)).toBe(false);
  });
});
