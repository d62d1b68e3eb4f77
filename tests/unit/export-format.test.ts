import { describe, expect, it } from "vitest";
import { splitExportFormat } from "@/lib/export/format";
import { exportFilename } from "@/lib/export/status";

// The export's `format`: beside the filters (in the body or the query string), never a filter.

describe("export format", () => {
  const q = (s: string) => new URLSearchParams(s);

  it("defaults to csv and leaves the filters as they were", () => {
    const split = splitExportFormat(q("email=a"));
    expect(split).toEqual({ ok: true, value: { format: "csv", query: q("email=a"), body: undefined } });
  });

  it("is taken out of the query or the body, and may sit in the query beside a body's filters", () => {
    expect(splitExportFormat(q("format=xlsx&email=a"))).toMatchObject({ ok: true, value: { format: "xlsx", query: q("email=a") } });
    expect(splitExportFormat(q(""), { format: "xlsx", email: "a" })).toMatchObject({ ok: true, value: { format: "xlsx", body: { email: "a" } } });
    expect(splitExportFormat(q("format=xlsx"), { email: "a" })).toMatchObject({ ok: true, value: { format: "xlsx", query: q(""), body: { email: "a" } } });
  });

  it("names `format` when it is not csv or xlsx, or given twice", () => {
    for (const [query, body] of [["format=pdf"], ["format=XLSX"], ["format="], ["format=csv&format=xlsx"], ["format=csv", { format: "csv" }], ["", { format: ["xlsx"] }], ["", { format: null }]] as const) {
      const split = splitExportFormat(q(query), body);
      expect(split.ok, JSON.stringify([query, body])).toBe(false);
      if (!split.ok) expect(Object.keys(split.fields)).toEqual(["format"]);
    }
  });

  it("gives the file name the format's extension", () => {
    const at = new Date("2026-11-22T23:05:00Z");
    expect(exportFilename(at, "UTC", "xlsx")).toBe("subscribers-20261122-2305.xlsx");
    expect(exportFilename(at, "Europe/Paris")).toBe("subscribers-20261123-0005.csv");
  });
});
