import { describe, expect, it } from "vitest";
import { dismissBodySchema, mergeBodySchema } from "@/lib/subscribers/duplicate-schema";
import { fieldErrors } from "@/lib/validation/common";

// The duplicates review's bodies (docs/API.md, "Duplicates: review and merge") as an attacker
// sends them: every bad shape a 400 naming its member, never a throw (a 500).

const version = "2026-11-27T10:00:00.000Z";
const problems = (schema: typeof mergeBodySchema | typeof dismissBodySchema, body: unknown) => {
  const r = schema.safeParse(body);
  return r.success ? {} : fieldErrors(r.error);
};

describe("the merge body", () => {
  const good = { survivor_id: 1, merged_ids: [2], values: { first_name: 2 }, updated_at: { 1: version, 2: version } };

  it("takes a good body", () => {
    expect(mergeBodySchema.parse(good)).toMatchObject({ survivor_id: 1, merged_ids: [2], values: { first_name: 2 } });
  });

  it("names updated_at or values when they are not objects, without reading their members (null threw)", () => {
    for (const updated_at of [null, undefined, 5, "x", [version, version], true]) {
      const body = { ...good, updated_at };
      expect(() => mergeBodySchema.safeParse(body), JSON.stringify(updated_at)).not.toThrow();
      expect(Object.keys(problems(mergeBodySchema, body)), JSON.stringify(updated_at)).toEqual(["updated_at"]);
    }
    for (const values of [null, 5, "first_name", [2]]) {
      const body = { ...good, values };
      expect(() => mergeBodySchema.safeParse(body), JSON.stringify(values)).not.toThrow();
      expect(Object.keys(problems(mergeBodySchema, body)), JSON.stringify(values)).toEqual(["values"]);
    }
  });

  it("names ids in any spelling but a whole number in range, and arrays where one id goes", () => {
    for (const survivor_id of [" 1", "1e0", "01", -1, 0, 1.5, 99_999_999_999, [1], { id: 1 }, null, true]) {
      expect(Object.keys(problems(mergeBodySchema, { ...good, survivor_id })), JSON.stringify(survivor_id)).toContain("survivor_id");
    }
    for (const merged_ids of [2, "2", [[2]], [" 2"], [-2], {}]) {
      expect(Object.keys(problems(mergeBodySchema, { ...good, merged_ids })).some((k) => k.startsWith("merged_ids")), JSON.stringify(merged_ids)).toBe(true);
    }
  });

  it("names keys an object does not hold, __proto__ and constructor included", () => {
    const values = JSON.parse('{"__proto__": 2, "constructor": 2}') as Record<string, number>;
    expect(Object.keys(problems(mergeBodySchema, { ...good, values })).sort()).toEqual(["values.__proto__", "values.constructor"]);
    const updated_at = JSON.parse(`{"1": "${version}", "2": "${version}", "__proto__": "${version}"}`) as Record<string, string>;
    expect(Object.keys(problems(mergeBodySchema, { ...good, updated_at }))).toEqual(["updated_at"]);
    const top = JSON.parse(`{"survivor_id": 1, "merged_ids": [2], "updated_at": {"1": "${version}", "2": "${version}"}, "__proto__": {"merged_ids": [3]}}`) as unknown;
    expect(mergeBodySchema.safeParse(top).success).toBe(false);
  });
});

describe("the dismiss body", () => {
  it("names ids that are not a list of 2 to 50 distinct ids", () => {
    for (const ids of [1, "1,2", [1], [1, 1], [[1], [2]], [" 1", 2], ["1e0", 2], [-1, 2], [1.5, 2], [99_999_999_999, 2], null, { 0: 1, 1: 2 }]) {
      expect(Object.keys(problems(dismissBodySchema, { ids })).some((k) => k.startsWith("ids")), JSON.stringify(ids)).toBe(true);
    }
    expect(dismissBodySchema.parse({ ids: [1, "2"] })).toEqual({ ids: [1, 2] });
    expect(dismissBodySchema.safeParse(JSON.parse('{"ids": [1, 2], "__proto__": {"ids": [3, 4]}}')).success).toBe(false);
  });
});
