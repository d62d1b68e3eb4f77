import { describe, expect, it } from "vitest";
import { parseExportBody, parseExportFilters, parseExportQuery } from "@/lib/export/filters";
import { exportFilename } from "@/lib/export/status";

describe("export filters", () => {
  it("captures the list's filters as query strings and the sort the rows follow; page and unknown names are ignored", () => {
    const parsed = parseExportFilters({ email: " ada ", is_duplicate: true, page: "4", sort: "-email", evil: "x", id: 12 });
    expect(parsed).toEqual({
      ok: true,
      value: { raw: { email: "ada", is_duplicate: "true", id: "12" }, values: { email: "ada", is_duplicate: true, id: 12 }, sort: "-email" },
    });
  });

  it("refuses what the list refuses, a sort it does not take included", () => {
    const sorted = parseExportFilters({ sort: "-password" });
    expect(sorted.ok).toBe(false);
    if (!sorted.ok) expect(Object.keys(sorted.fields)).toEqual(["sort"]);
    const parsed = parseExportFilters(new URLSearchParams("is_mandatory=maybe&created_from=2026-02-30"));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(Object.keys(parsed.fields).sort()).toEqual(["created_from", "is_mandatory"]);
  });
});

// Issue 19, point 6: a JSON body with a misspelt key or an operator object was dropped to "no
// filter", and the export held every subscriber. A body names filters, as strings, or is a 400.
describe("export body", () => {
  const refused = (body: unknown) => {
    const parsed = parseExportBody(body);
    expect(parsed.ok, JSON.stringify(body)).toBe(false);
    return parsed.ok ? [] : Object.keys(parsed.fields);
  };

  it("takes the list's filters as strings", () => {
    expect(parseExportBody({ email: " ada ", is_duplicate: "true", id: "12" })).toEqual({
      ok: true,
      value: { raw: { email: "ada", is_duplicate: "true", id: "12" }, values: { email: "ada", is_duplicate: true, id: 12 }, sort: null },
    });
    expect(parseExportBody({})).toEqual({ ok: true, value: { raw: {}, values: {}, sort: null } });
  });

  it("names an unknown key; the list's page (ignored) and sort (followed) are known", () => {
    expect(refused({ emial: "ada@example.com" })).toEqual(["emial"]);
    expect(parseExportBody({ email: "a", page: "2", sort: "-email" })).toEqual({ ok: true, value: { raw: { email: "a" }, values: { email: "a" }, sort: "-email" } });
    expect(refused({ page: 2 })).toEqual(["page"]);
    expect(refused(JSON.parse('{"__proto__": {"email": "x"}}'))).toEqual(["__proto__"]);
  });

  it("names a value that is not a string", () => {
    expect(refused({ email: { $ne: "x" } })).toEqual(["email"]);
    for (const value of [true, 12, null, ["a"], {}]) expect(refused({ id: value })).toEqual(["id"]);
  });

  it("refuses a body that is not an object", () => {
    for (const body of [null, [], ["email"], "email=a", 5, true]) expect(refused(body)).toEqual(["_"]);
  });

  it("still refuses what the list refuses", () => {
    expect(refused({ is_mandatory: "maybe", travel_date_from: "0000-01-01" }).sort()).toEqual(["is_mandatory", "travel_date_from"]);
  });
});

// Found on the production build: POST /api/v1/subscribers/export?emial=nobody answered 202 with
// no filter, an export of everything. A POST's query string is as strict as its body.
describe("export request's query string", () => {
  const refused = (query: string) => {
    const parsed = parseExportQuery(new URLSearchParams(query));
    expect(parsed.ok, query).toBe(false);
    return parsed.ok ? [] : Object.keys(parsed.fields);
  };

  it("takes the list's filters; page (ignored) and sort (followed) are known", () => {
    expect(parseExportQuery(new URLSearchParams("email=%20ada%20&is_duplicate=true&id=12&page=2&sort=-email"))).toEqual({
      ok: true,
      value: { raw: { email: "ada", is_duplicate: "true", id: "12" }, values: { email: "ada", is_duplicate: true, id: 12 }, sort: "-email" },
    });
    expect(parseExportQuery(new URLSearchParams(""))).toEqual({ ok: true, value: { raw: {}, values: {}, sort: null } });
  });

  it("names an unknown key, a key given twice, and what the list refuses", () => {
    expect(refused("emial=nobody")).toEqual(["emial"]);
    expect(refused("email=a&emial=b&x=1").sort()).toEqual(["emial", "x"]);
    expect(refused("email=a&email=b")).toEqual(["email"]);
    expect(refused("__proto__=x")).toEqual(["__proto__"]);
    expect(refused("constructor=x&toString=y").sort()).toEqual(["constructor", "toString"]);
    expect(refused("email[$ne]=x")).toEqual(["email[$ne]"]);
    expect(refused("travel_date_from=0000-01-01")).toEqual(["travel_date_from"]);
  });
});

describe("export file name", () => {
  it("is subscribers-YYYYMMDD-HHMM.csv at the completion time in the console's zone", () => {
    const at = new Date("2026-11-22T23:05:59Z");
    expect(exportFilename(at, "UTC")).toBe("subscribers-20261122-2305.csv");
    expect(exportFilename(at, "Europe/Paris")).toBe("subscribers-20261123-0005.csv");
  });
});
