import { describe, expect, it } from "vitest";
import { branchFiltersSchema } from "@/lib/branches/filters";
import { parseWith } from "@/lib/list/parse";

const parse = (query: string) => parseWith(branchFiltersSchema, new URLSearchParams(query));

describe("branch filters", () => {
  it("defaults to page 1, newest first", () => {
    const r = parse("");
    expect(r).toEqual({ ok: true, value: { page: 1, sort: { column: "created_at", direction: "desc" } } });
  });

  it("reads every filter", () => {
    const r = parse("page=3&sort=name&id=12&name=%20north%20&created_from=2026-01-01&created_to=2026-01-31&updated_from=2026-02-01&updated_to=2026-02-02");
    expect(r.ok && r.value).toEqual({
      page: 3,
      sort: { column: "name", direction: "asc" },
      id: 12,
      name: "north",
      created_from: "2026-01-01",
      created_to: "2026-01-31",
      updated_from: "2026-02-01",
      updated_to: "2026-02-02",
    });
  });

  it("treats empty values as absent", () => {
    const r = parse("name=&id=&created_from=");
    expect(r.ok && r.value).toEqual({ page: 1, sort: { column: "created_at", direction: "desc" } });
  });

  it.each(["0", "-3", "abc", "2.5", "1e3", "99999999999999999999"])("rejects page=%s with the field named", (page) => {
    const r = parse(`page=${encodeURIComponent(page)}`);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(Object.keys(r.fields)).toEqual(["page"]);
  });

  it.each([
    ["sort=colour", "sort"],
    ["sort=--name", "sort"],
    ["id=abc", "id"],
    ["id=0", "id"],
    ["created_from=2026-02-30", "created_from"],
    ["created_from=22/11/2026", "created_from"],
    ["updated_from=2026-03-02&updated_to=2026-03-01", "updated_to"],
    ["name=a&name=b", "name"],
    [`name=${"x".repeat(101)}`, "name"],
  ])("rejects %s on %s", (query, field) => {
    const r = parse(query);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.fields[field]?.length).toBeGreaterThan(0);
  });

  it("ignores unknown parameters", () => {
    expect(parse("utm_source=mail").ok).toBe(true);
  });
});
