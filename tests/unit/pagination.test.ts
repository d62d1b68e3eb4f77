import { describe, expect, it } from "vitest";
import { MAX_PAGE_BUTTONS, pageWindow, pagination, showsPager, shownRange } from "@/lib/list/pagination";

describe("pageWindow", () => {
  const cases: [current: number, length: number, expected: number[]][] = [
    [1, 1, [1]],
    [1, 2, [1, 2]],
    [2, 2, [1, 2]],
    [2, 3, [1, 2, 3]],
    [1, 4, [1, 2, 3, 4]],
    [4, 4, [1, 2, 3, 4]],
    [3, 5, [1, 2, 3, 4, 5]],
    [1, 7, [1, 2, 3, 4, 5, 6, 7]],
    [7, 7, [1, 2, 3, 4, 5, 6, 7]],
    [1, 8, [1, 2, 3, 4, 5, 6, 8]],
    [4, 8, [1, 2, 3, 4, 5, 6, 8]],
    [5, 8, [1, 3, 4, 5, 6, 7, 8]],
    [8, 8, [1, 3, 4, 5, 6, 7, 8]],
    [1, 100, [1, 2, 3, 4, 5, 6, 100]],
    [50, 100, [1, 48, 49, 50, 51, 52, 100]],
    [97, 100, [1, 95, 96, 97, 98, 99, 100]],
    [100, 100, [1, 95, 96, 97, 98, 99, 100]],
    [10, 20, [1, 8, 9, 10, 11, 12, 20]],
  ];
  it.each(cases)("page %i of %i → %j", (current, length, expected) => {
    expect(pageWindow(current, length)).toEqual(expected);
  });

  it("is empty when there are no pages", () => {
    expect(pageWindow(1, 0)).toEqual([]);
  });

  it("clamps a current page outside 1..length", () => {
    expect(pageWindow(0, 20)).toEqual([1, 2, 3, 4, 5, 6, 20]);
    expect(pageWindow(-3, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(999, 20)).toEqual([1, 15, 16, 17, 18, 19, 20]);
  });

  it("holds its invariants for every page of every length up to 60", () => {
    for (let length = 1; length <= 60; length++) {
      for (let current = 1; current <= length; current++) {
        const pages = pageWindow(current, length);
        expect(pages.length).toBe(Math.min(MAX_PAGE_BUTTONS, length));
        expect(pages).toContain(current);
        // The first and the last page are always there; the pages between them follow one another.
        expect(pages[0]).toBe(1);
        expect(pages.at(-1)).toBe(length);
        pages.slice(1, -1).forEach((p, i) => i > 0 && expect(p).toBe(pages[i]! + 1));
        pages.forEach((p, i) => i > 0 && expect(p).toBeGreaterThan(pages[i - 1]!));
        // Following the current page: centred whenever both ends allow it.
        if (current > 3 && current <= length - 3) expect(pages[3]).toBe(current);
      }
    }
  });
});

describe("pagination", () => {
  it("counts pages of 10", () => {
    expect(pagination(0, 1)).toEqual({ total: 0, length: 0, page: 1, per_page: 10 });
    expect(pagination(10, 1).length).toBe(1);
    expect(pagination(11, 1).length).toBe(2);
    expect(pagination(245, 3).length).toBe(25);
  });

  it("shows the pager only above 10 matches", () => {
    expect(showsPager(0)).toBe(false);
    expect(showsPager(10)).toBe(false);
    expect(showsPager(11)).toBe(true);
  });

  it("says which rows are shown", () => {
    expect(shownRange(pagination(245, 2), 10)).toEqual({ from: 11, to: 20, total: 245 });
    expect(shownRange(pagination(245, 25), 5)).toEqual({ from: 241, to: 245, total: 245 });
    expect(shownRange(pagination(245, 26), 0)).toEqual({ from: 0, to: 0, total: 245 });
  });
});

describe("pageWindow on a phone (five buttons)", () => {
  it("is the wide window narrowed: its pages are among the seven's", () => {
    for (let length = 1; length <= 40; length++) {
      for (let current = 1; current <= length; current++) {
        const phone = pageWindow(current, length, 5);
        expect(phone).toContain(current);
        expect(phone.length).toBe(Math.min(5, length));
        for (const p of phone) expect(pageWindow(current, length)).toContain(p);
      }
    }
  });
});
