import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { branchFiltersSchema } from "@/lib/branches/filters";
import { branchIdSchema } from "@/lib/branches/schema";
import { parseWith } from "@/lib/list/parse";
import { subscriberFiltersSchema } from "@/lib/subscribers/filters";
import { MAX_ID, parseId } from "@/lib/validation/id";

// Issue 19, point 6: `0x36`, `0b110110`, `54e0`, `54.0` and ` 54` all named branch 54
// (z.coerce.number()). An id has one spelling, its digits; one parser reads it everywhere.

const OTHER_SPELLINGS_OF_54 = ["0x36", "0X36", "0b110110", "0o66", "54e0", "5.4e1", "54.0", "54.", " 54", "54 ", "\t54", "054", "0054", "+54", "54n", "٥٤", "５４", "54\u200b", "5_4", "Infinity"];

describe("parseId", () => {
  it("reads an id's digits", () => {
    expect(parseId("54")).toBe(54);
    expect(parseId("1")).toBe(1);
    expect(parseId(String(MAX_ID))).toBe(MAX_ID);
  });

  it("names nothing by any other spelling", () => {
    for (const spelling of OTHER_SPELLINGS_OF_54) expect(parseId(spelling), JSON.stringify(spelling)).toBeNull();
    for (const value of ["", "0", "-1", "-0", String(MAX_ID + 1), "99999999999", "1".repeat(400), null, undefined, {}, [54], true]) {
      expect(parseId(value), JSON.stringify(value)).toBeNull();
    }
  });

  it("takes a JSON number only when it is a whole id", () => {
    expect(parseId(54)).toBe(54);
    for (const n of [0, -54, 54.5, Number.NaN, Number.POSITIVE_INFINITY, MAX_ID + 1]) expect(parseId(n), String(n)).toBeNull();
  });

  it("gives every id one spelling: what it accepts prints back as the text it read", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.integer().map(String), fc.stringMatching(/^[0-9xbeo. +-]{1,12}$/)), (text) => {
        const id = parseId(text);
        if (id !== null) expect(String(id)).toBe(text);
      }),
      { numRuns: 2000, seed: 19 },
    );
    fc.assert(fc.property(fc.integer({ min: 1, max: MAX_ID }), (n) => {
        expect(parseId(String(n))).toBe(n);
      }), { numRuns: 500, seed: 19 });
  });
});

describe("every id input goes through it", () => {
  it("branch actions' ids", () => {
    expect(branchIdSchema.safeParse(54).success).toBe(true);
    expect(branchIdSchema.safeParse("54").success).toBe(true);
    for (const spelling of OTHER_SPELLINGS_OF_54) expect(branchIdSchema.safeParse(spelling).success, spelling).toBe(false);
  });

  it("the id filters of the lists", () => {
    for (const schema of [branchFiltersSchema, subscriberFiltersSchema]) {
      const ok = parseWith(schema, new URLSearchParams({ id: "54" }));
      expect(ok.ok && ok.value.id).toBe(54);
      for (const spelling of ["0x36", "0b110110", "54e0", "54.0", "054", "+54"]) {
        const result = parseWith(schema, new URLSearchParams({ id: spelling }));
        expect(result.ok, spelling).toBe(false);
        if (!result.ok) expect(Object.keys(result.fields)).toEqual(["id"]);
      }
    }
  });
});
