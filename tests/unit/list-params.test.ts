import { describe, expect, it } from "vitest";
import { rawParams, withParams } from "@/lib/list/params";

// The list's address: read into plain values, and rebuilt with changes (the pager, the chips).

describe("rawParams", () => {
  it("keeps repeated keys as arrays", () => {
    expect(rawParams(new URLSearchParams("a=1&b=2&a=3"))).toEqual({ a: ["1", "3"], b: "2" });
  });

  it("reads names Object.prototype has as the plain names they are", () => {
    const out = rawParams(new URLSearchParams("constructor=x&toString=y&__proto__=z&__proto__=w&q=ro"));
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out).sort()).toEqual(["__proto__", "constructor", "q", "toString"]);
    expect(out.constructor).toBe("x");
    expect(Object.getOwnPropertyDescriptor(out, "__proto__")?.value).toEqual(["z", "w"]);
    expect(out.q).toBe("ro");
  });
});

describe("withParams", () => {
  it("keeps every other parameter and applies the changes", () => {
    expect(withParams({ q: "ro", page: "3" }, { page: undefined })).toBe("?q=ro");
    expect(withParams({ q: "ro" }, { page: 2 })).toBe("?q=ro&page=2");
    expect(withParams({}, {})).toBe("");
  });

  it("keeps parameters named like Object.prototype's members (own keys of the changes only)", () => {
    expect(withParams({ constructor: "x", toString: "y", q: "ro" }, { page: undefined })).toBe("?constructor=x&toString=y&q=ro");
  });
});
