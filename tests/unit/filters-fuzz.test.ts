import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { auditFiltersSchema } from "@/lib/audit/filters";
import { branchFiltersSchema } from "@/lib/branches/filters";
import { parseWith } from "@/lib/list/parse";
import { subscriberFiltersSchema } from "@/lib/subscribers/filters";

// Whatever a query string holds, the parsers answer "ok with typed values" or "these fields are
// wrong": they never throw and never let an unchecked value through.

const KEYS = ["page", "sort", "id", "name", "first_name", "email", "mobile", "subscription_status", "is_duplicate", "is_mandatory", "created_from", "created_to", "travel_date_from", "action", "x"];
const value = fc.oneof(
  fc.string(),
  fc.integer().map(String),
  fc.constantFrom("", " ", "0", "-1", "1.5", "1e9", "true", "false", "active", "2026-02-30", "2026-01-01", "-name", "name", "%", "'; DROP TABLE x; --"),
);
const query = fc.array(fc.tuple(fc.constantFrom(...KEYS), value), { maxLength: 12 }).map((pairs) => {
  const params = new URLSearchParams();
  for (const [k, v] of pairs) params.append(k, v);
  return params;
});

describe.each([
  ["branches", branchFiltersSchema],
  ["subscribers", subscriberFiltersSchema],
  ["audit", auditFiltersSchema],
] as const)("%s filter parser", (_name, schema) => {
  it("never throws, and a success has a positive page and a known sort", () => {
    fc.assert(
      fc.property(query, (params) => {
        const result = parseWith(schema, params);
        if (result.ok) {
          expect(Number.isSafeInteger(result.value.page) && result.value.page >= 1).toBe(true);
          expect(["asc", "desc"]).toContain(result.value.sort.direction);
        } else {
          expect(Object.keys(result.fields).length).toBeGreaterThan(0);
          expect(result.message).not.toMatch(/\n\s+at /);
        }
      }),
      { numRuns: 500 },
    );
  });
});
