import { describe, expect, it } from "vitest";
import { auditFiltersSchema } from "@/lib/audit/filters";
import { branchFiltersSchema } from "@/lib/branches/filters";
import { parseExportFilters } from "@/lib/export/filters";
import { parseWith } from "@/lib/list/parse";
import { subscriberFiltersSchema } from "@/lib/subscribers/filters";
import { subscriberInputSchema } from "@/lib/subscribers/schema";
import { problemsIn } from "@/lib/i18n/problems-in";
import { DAY_RANGE_MESSAGE } from "@/lib/validation/common";

// Issue 19, point 5: `travel_date_from=0000-01-01` reached PostgreSQL (which has no year 0) and
// answered 500 on the list, the API and the export. Every date filter takes the days records
// take, 1900-01-01 to 2100-12-31, and names the filter otherwise.

const OUT_OF_RANGE = ["0000-01-01", "0001-01-01", "1582-10-10", "1899-12-31", "2101-01-01", "9999-12-31"];
const IN_RANGE = ["1900-01-01", "1970-01-01", "2026-02-28", "2028-02-29", "2100-12-31"];

describe("date filters", () => {
  const cases = [
    ["subscribers", subscriberFiltersSchema, ["travel_date_from", "travel_date_to", "created_from", "created_to"]],
    ["branches", branchFiltersSchema, ["created_from", "created_to", "updated_from", "updated_to"]],
    ["audit", auditFiltersSchema, ["at_from", "at_to"]],
  ] as const;

  for (const [name, schema, keys] of cases) {
    it(`${name}: refuses days outside 1900–2100 with a message naming the range`, () => {
      for (const key of keys) {
        for (const day of OUT_OF_RANGE) {
          const result = parseWith(schema, new URLSearchParams({ [key]: day }));
          expect(result.ok, `${key}=${day}`).toBe(false);
          if (!result.ok) expect(result.fields[key]).toEqual([problemsIn("en")(DAY_RANGE_MESSAGE)]);
        }
        for (const day of IN_RANGE) expect(parseWith(schema, new URLSearchParams({ [key]: day })).ok, `${key}=${day}`).toBe(true);
      }
    });
  }

  it("says a day that does not exist does not exist (and only that)", () => {
    const result = parseWith(subscriberFiltersSchema, new URLSearchParams({ travel_date_from: "0000-02-30" }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.fields.travel_date_from).toEqual(["That date does not exist."]);
  });

  it("refuses the same days in an export request", () => {
    const result = parseExportFilters(new URLSearchParams({ travel_date_from: "0000-01-01" }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(Object.keys(result.fields)).toEqual(["travel_date_from"]);
  });

  it("is the rule a subscriber's travel date already follows", () => {
    const base = { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com", mobile: "+44 7400 123456", subscription_status: "active", is_mandatory: false };
    for (const day of OUT_OF_RANGE) expect(subscriberInputSchema.safeParse({ ...base, travel_date: day }).success, day).toBe(false);
    for (const day of IN_RANGE) expect(subscriberInputSchema.safeParse({ ...base, travel_date: day }).success, day).toBe(true);
  });
});
