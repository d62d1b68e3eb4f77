import { describe, expect, it } from "vitest";
import { parseExportFilters } from "@/lib/export/filters";
import { exportFilename } from "@/lib/export/status";

describe("export filters", () => {
  it("captures the list's filters as query strings; page, sort and unknown names are ignored", () => {
    const parsed = parseExportFilters({ email: " ada ", is_duplicate: true, page: "4", sort: "-email", evil: "x", id: 12 });
    expect(parsed).toEqual({
      ok: true,
      value: { raw: { email: "ada", is_duplicate: "true", id: "12" }, values: { email: "ada", is_duplicate: true, id: 12 } },
    });
  });

  it("refuses what the list refuses", () => {
    const parsed = parseExportFilters(new URLSearchParams("is_mandatory=maybe&created_from=2026-02-30"));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(Object.keys(parsed.fields).sort()).toEqual(["created_from", "is_mandatory"]);
  });
});

describe("export file name", () => {
  it("is subscribers-YYYYMMDD-HHMM.csv at the completion time in the console's zone", () => {
    const at = new Date("2026-11-22T23:05:59Z");
    expect(exportFilename(at, "UTC")).toBe("subscribers-20261122-2305.csv");
    expect(exportFilename(at, "Europe/Paris")).toBe("subscribers-20261123-0005.csv");
  });
});
