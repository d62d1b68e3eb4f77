import { describe, expect, it } from "vitest";
import { createTranslator } from "use-intl/core";
import { auditToolbar } from "@/app/(console)/audit/filter-fields";
import { branchToolbar } from "@/app/(console)/branches/filter-fields";
import { subscriberToolbar } from "@/app/(console)/subscribers/filter-fields";
import { userToolbar } from "@/app/(console)/users/filter-fields";
import type { FilterField, ListFilters } from "@/components/list/filter-bar";
import { filterChips } from "@/components/list/filter-chip-words";
import { auditWords } from "@/lib/audit/describe";
import { auditFiltersSchema } from "@/lib/audit/filters";
import { branchFiltersSchema } from "@/lib/branches/filters";
import { catalogue } from "@/lib/i18n/catalogues";
import { parseWith } from "@/lib/list/parse";
import { subscriberFiltersSchema } from "@/lib/subscribers/filters";
import { userFiltersSchema } from "@/lib/users/filters";

// Every list's toolbar is data (ListFilters) read by the one FilterBar and FilterChips: here, that
// each list's data and its parser (docs/API.md's names) agree.

// The toolbars as an English page builds them.
const messages = catalogue("en");
const SUBSCRIBER_TOOLBAR = subscriberToolbar(createTranslator({ locale: "en", messages }));
const BRANCH_TOOLBAR = branchToolbar(createTranslator({ locale: "en", messages, namespace: "branches" }));
const USER_TOOLBAR = userToolbar(createTranslator({ locale: "en", messages, namespace: "users" }));
const AUDIT_TOOLBAR = auditToolbar(auditWords());

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
