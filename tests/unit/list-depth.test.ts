import { afterEach, describe, expect, it } from "vitest";
import { MAX_SKIP, PageTooDeepError, setListLimitsForTests, shallowWindow, windowFor } from "@/lib/list/depth";
import { caseless, trigramServes } from "@/lib/list/sql";

// Issue 19: page 1,000,000,000 asked PostgreSQL for ten billion rows. No page may skip more than
// MAX_SKIP rows, from either end.

describe("page windows", () => {
  afterEach(() => setListLimitsForTests());

  it("reads shallow pages at once, from the start", () => {
    expect(shallowWindow(1)).toEqual({ offset: 0, limit: 10, reverse: false });
    expect(shallowWindow(MAX_SKIP / 10 + 1)).toEqual({ offset: MAX_SKIP, limit: 10, reverse: false });
    expect(shallowWindow(MAX_SKIP / 10 + 2)).toBeNull();
    expect(shallowWindow(1_000_000_000)).toBeNull();
  });

  it("answers a page past the end without reading, reads the last pages backwards, refuses the middle", () => {
    const total = 1_000_005; // 100,001 pages, the last one of 5 rows
    expect(windowFor(1_000_000_000, total)).toBeNull();
    expect(windowFor(100_002, total)).toBeNull();
    expect(windowFor(100_001, total)).toEqual({ offset: 0, limit: 5, reverse: true });
    expect(windowFor(100_000, total)).toEqual({ offset: 5, limit: 10, reverse: true });
    expect(windowFor(90_001, total)).toEqual({ offset: 99_995, limit: 10, reverse: true });
    expect(() => windowFor(90_000, total)).toThrow(PageTooDeepError);
    expect(() => windowFor(10_002, total)).toThrow(PageTooDeepError);
    expect(windowFor(10_001, total)).toEqual({ offset: MAX_SKIP, limit: 10, reverse: false });
  });

  it("never skips more than the limit, for any page of any total", () => {
    setListLimitsForTests({ maxSkip: 30 });
    for (let total = 0; total <= 120; total++) {
      for (let page = 1; page <= 14; page++) {
        let window;
        try {
          window = windowFor(page, total);
        } catch (error) {
          expect(error).toBeInstanceOf(PageTooDeepError);
          continue;
        }
        if (!window) {
          expect((page - 1) * 10).toBeGreaterThanOrEqual(total);
          continue;
        }
        expect(window.offset).toBeLessThanOrEqual(30);
        // The window holds exactly the rows of the page, counted from its end when reversed.
        const from = window.reverse ? total - window.offset - window.limit : window.offset;
        expect(from).toBe((page - 1) * 10);
        expect(Math.min(window.limit, total - from)).toBe(Math.min(10, total - from));
        if (window.reverse) expect(window.limit).toBe(Math.min(10, total - from));
      }
    }
  });

  it("says which pages can be shown", () => {
    const error = new PageTooDeepError(1_000_000);
    expect(error.status).toBe(400);
    expect(error.code).toBe("page_too_deep");
    expect(error.message).toBe("Pages 10,002 to 89,999 of these 1,000,000 records cannot be shown. Narrow the filters, or go to the first or last pages.");
    expect(error.fields).toEqual({ page: ["Only pages 1–10,001 and 90,000–100,000 can be shown for this list."] });
  });
});

describe("contains filters", () => {
  it("match with LIKE only what has no case", () => {
    for (const text of ["😀", "😀".repeat(60), "123", "+44", ".", "@", "_%\\", "١٢٣", "中文"]) expect(caseless(text), text).toBe(true);
    for (const text of ["a", "A", ".com", "é", "ß", "İ", "ǅ", "x😀", "\u0307"]) expect(caseless(text), text).toBe(false);
  });

  it("know when a trigram index can serve them", () => {
    for (const text of ["mill", "com", ".com", "abc😀", "123", "zoë"]) expect(trigramServes(text), text).toBe(true);
    for (const text of ["a", "ab", "😀".repeat(60), "a.b", "ab cd", "@", "", "12"]) expect(trigramServes(text), text).toBe(false);
  });
});
