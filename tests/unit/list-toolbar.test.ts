import { describe, expect, it } from "vitest";
import { AUDIT_TOOLBAR } from "@/app/(console)/audit/filter-fields";
import { BRANCH_TOOLBAR } from "@/app/(console)/branches/filter-fields";
import { SUBSCRIBER_TOOLBAR } from "@/app/(console)/subscribers/filter-fields";
import { USER_TOOLBAR } from "@/app/(console)/users/filter-fields";
import type { FilterField, ListFilters } from "@/components/list/filter-bar";
import { filterChips } from "@/components/list/filter-chip-words";
import { auditFiltersSchema } from "@/lib/audit/filters";
import { branchFiltersSchema } from "@/lib/branches/filters";
import { parseWith } from "@/lib/list/params";
import { subscriberFiltersSchema } from "@/lib/subscribers/filters";
import { userFiltersSchema } from "@/lib/users/filters";

// Every list's toolbar is data (ListFilters) read by the one FilterBar and FilterChips: here, that
// each list's data and its parser (docs/API.md's names) agree.

const LISTS = [
  ["/subscribers", SUBSCRIBER_TOOLBAR, subscriberFiltersSchema],
  ["/branches", BRANCH_TOOLBAR, branchFiltersSchema],
  ["/users", USER_TOOLBAR, userFiltersSchema],
  ["/audit", AUDIT_TOOLBAR, auditFiltersSchema],
] as const;

const names = (field: FilterField) => (field.kind === "dateRange" ? [field.from, field.to] : [field.name]);
const controls = (toolbar: ListFilters) => [toolbar.search, ...toolbar.fields].flatMap(names);

describe.each(LISTS)("the %s toolbar", (_path, toolbar, schema) => {
  it("has one control for every filter its parser reads, and none for anything else", () => {
    const all = controls(toolbar);
    expect(new Set(all).size).toBe(all.length);
    expect([...all].sort()).toEqual([...toolbar.keys].sort());
  });

  it("searches with a text filter and offers only options its parser accepts", () => {
    expect(toolbar.search.kind).toBe("text");
    for (const field of toolbar.fields) {
      if (field.kind !== "select") continue;
      for (const option of field.options) {
        expect(parseWith(schema, { [field.name]: option.value }).ok, `${field.name}=${option.value}`).toBe(true);
      }
    }
  });

  it("shows each filter in force as a chip named by its label", () => {
    const query = Object.fromEntries(
      [toolbar.search, ...toolbar.fields].flatMap((field) =>
        field.kind === "dateRange" ? [[field.from, "2026-01-01"]] : [[field.name, field.kind === "select" ? field.options[0]!.value : "7"]],
      ),
    );
    expect(parseWith(schema, query).ok).toBe(true);
    const chips = filterChips([toolbar.search, ...toolbar.fields], query);
    expect(chips.map((c) => c.key)).toEqual(Object.keys(query));
    expect(chips[0]).toEqual({ key: toolbar.search.name, label: toolbar.search.label, value: "7" });
  });
});

describe("the toolbars' search fields", () => {
  it("keep docs/API.md's parameter names", () => {
    expect(LISTS.map(([path, toolbar]) => [path, toolbar.search.name])).toEqual([
      ["/subscribers", "q"],
      ["/branches", "name"],
      ["/users", "name"],
      ["/audit", "actor"],
    ]);
  });
});
