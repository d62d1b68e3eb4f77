import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CopyTextRows, parseCopyLine } from "@/lib/export/copy-text";
import { inlineValues } from "@/lib/export/rows";
import { Prisma } from "@/lib/generated/prisma/client";

// The export reads its rows as PostgreSQL's COPY text. Here the format is written the way the
// documentation says COPY TO writes it, cut into chunks anywhere (even inside a character), and
// read back; tests/integration/export-copy.test.ts does the same through real databases.

/** COPY TO's escaping of one value (FORMAT text, NULL ''). */
const copyEscape = (value: string | null) =>
  value === null
    ? ""
    : value.replace(/[\\\b\f\n\r\t\v]/g, (c) => `\\${{ "\\": "\\", "\b": "b", "\f": "f", "\n": "n", "\r": "r", "\t": "t", "\v": "v" }[c]}`);

const SPECIALS = ["\\", "\t", "\n", "\r", "\b", "\f", "\v", "\\N", "\\n", '"', ",", "'", " ", "é", "Ä", "𝄞", "a", "1", "="];
const value = fc.oneof(
  fc.constant(null),
  fc.string({ unit: "grapheme", maxLength: 12 }),
  fc.string({ unit: fc.constantFrom(...SPECIALS), maxLength: 10 }),
);
const rows = fc.array(fc.array(value, { minLength: 13, maxLength: 13 }), { maxLength: 30 });

/** Bytes cut at the given positions (any byte, so also inside a UTF-8 sequence). */
function cut(bytes: Uint8Array, at: number[]): Uint8Array[] {
  const points = [...new Set(at.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const p of [...points, bytes.length]) {
    chunks.push(bytes.subarray(from, p));
    from = p;
  }
  return chunks;
}

describe("COPY text rows", () => {
  it("reads back every row, however the output is cut into chunks", () => {
    fc.assert(
      fc.property(rows, fc.array(fc.nat(), { maxLength: 8 }), (input, at) => {
        const text = input.map((r) => `${r.map(copyEscape).join("\t")}\n`).join("");
        const reader = new CopyTextRows();
        const out = cut(new TextEncoder().encode(text), at).flatMap((chunk) => reader.push(chunk));
        reader.end();
        expect(out).toEqual(input.map((r) => r.map((v) => v ?? "")));
      }),
      { numRuns: 500 },
    );
  });

  it("unescapes PostgreSQL's backslash sequences", () => {
    expect(parseCopyLine("a\\tb\t\\\\N\tx\\ny\\r\\\\\t")).toEqual(["a\tb", "\\N", "x\ny\r\\", ""]);
  });

  it("refuses output that ends inside a row", () => {
    const reader = new CopyTextRows();
    expect(reader.push("1\ta\n2\tb")).toEqual([["1", "a"]]);
    expect(() => reader.end()).toThrow(/middle of a row/);
  });
});

describe("values written into an export's COPY statement", () => {
  it("quotes strings, keeps integers and booleans, types dates", () => {
    const at = new Date("2026-03-01T00:00:00.000Z");
    const q = Prisma.sql`SELECT ${"O'Brien \\ %"} AS a, ${42} AS b, ${true} AS c, ${at} AS d, ${"plain"} AS e`;
    expect(inlineValues(q)).toBe(
      `SELECT  E'O''Brien \\\\ %' AS a, 42 AS b, TRUE AS c, '2026-03-01T00:00:00.000Z'::timestamptz AS d, 'plain' AS e`,
    );
  });

  it("writes a list of integers as an array literal (a scope of several branches)", () => {
    expect(inlineValues(Prisma.sql`SELECT 1 WHERE s.branch_id = ANY(${[3, 12]}::int[])`)).toBe("SELECT 1 WHERE s.branch_id = ANY('{3,12}'::int[])");
    expect(inlineValues(Prisma.sql`SELECT ${[]}::int[]`)).toBe("SELECT '{}'::int[]");
  });

  it("refuses anything else", () => {
    for (const bad of [1.5, Number.NaN, 2 ** 60, null, undefined, {}, [1.5], ["1"], [1, null], [[1]], new Date(Number.NaN), 1n]) {
      expect(() => inlineValues(Prisma.sql`SELECT ${bad}`)).toThrow(/cannot be written/);
    }
  });
});
