import { describe, expect, it } from "vitest";
import { bulkApiBodySchema, bulkRequestSchema, changeFromChoice } from "@/lib/subscribers/bulk-schema";
import { fieldErrors, keysNotIn } from "@/lib/validation/common";

// A bulk change's request (lib/subscribers/bulk-schema.ts): a target and a change, the one schema
// of the confirmation's action; and the change menu's values.

const change = { is_mandatory: true };
const refused = (filters: unknown) => {
  const r = bulkRequestSchema.safeParse({ target: { filters }, change });
  return r.success ? null : Object.keys(fieldErrors(r.error));
};

describe("a bulk change's target", () => {
  it("takes the list's filters as its address spells them, page and sort included", () => {
    const r = bulkRequestSchema.parse({ target: { filters: { q: "ro", subscription_status: "active", page: "2", sort: "-id" } }, change });
    expect(r.target).toEqual({ filters: { q: "ro", subscription_status: "active", page: "2", sort: "-id" } });
    expect(bulkRequestSchema.parse({ target: { filters: {} }, change }).target).toEqual({ filters: {} });
  });

  it("refuses by name a key that is not a filter, Object.prototype's names and __proto__ included", () => {
    expect(refused({ emial: "x" })).toEqual(["target.filters.emial"]);
    for (const name of ["constructor", "toString", "valueOf", "hasOwnProperty", "__proto__", "isPrototypeOf"]) {
      // As JSON sends them: "__proto__" is then an own key of the body, not its prototype.
      expect(refused(JSON.parse(`{${JSON.stringify(name)}: "x"}`)), name).toEqual([`target.filters.${name}`]);
      expect(refused(JSON.parse(`{"q": "ro", ${JSON.stringify(name)}: {"is_mandatory": "false"}}`)), name).toContain(`target.filters.${name}`);
    }
  });

  it("refuses values that are not strings, and a selection beyond its bounds", () => {
    expect(refused({ q: { $ne: "x" } })).toEqual(["target.filters.q"]);
    expect(bulkRequestSchema.safeParse({ target: { ids: [] }, change }).success).toBe(false);
    expect(bulkRequestSchema.safeParse({ target: { ids: Array.from({ length: 101 }, (_, i) => i + 1) }, change }).success).toBe(false);
    expect(bulkRequestSchema.safeParse({ target: { ids: [1], filters: {} }, change }).success).toBe(false);
  });

  it("keysNotIn looks at own keys only", () => {
    const allowed = new Set(["q"]);
    expect(keysNotIn({ q: "a" }, allowed)).toEqual([]);
    expect(keysNotIn({ constructor: "a", toString: "b" }, allowed)).toEqual(["constructor", "toString"]);
    expect(keysNotIn(JSON.parse('{"__proto__": {"q": "x"}}'), allowed)).toEqual(["__proto__"]);
  });
});

describe("the change menu's values", () => {
  it("reads a status, the mandatory flag and deletion", () => {
    expect(changeFromChoice("status:active")).toEqual({ subscription_status: "active" });
    expect(changeFromChoice("status:cancelled")).toEqual({ subscription_status: "cancelled" });
    expect(changeFromChoice("mandatory:true")).toEqual({ is_mandatory: true });
    expect(changeFromChoice("mandatory:false")).toEqual({ is_mandatory: false });
    expect(changeFromChoice("delete")).toEqual({ delete: true });
  });

  it("is null for nothing chosen or anything else", () => {
    for (const choice of [undefined, "", "status", "status:", "status:Active", "status:deleted", "status:active:x", "mandatory", "mandatory:yes", "mandatory:TRUE", "delete:true", "delete:", "drop", "constructor", "status:constructor", "status:toString"]) {
      expect(changeFromChoice(choice), String(choice)).toBeNull();
    }
  });
});

describe("POST /api/v1/subscribers/bulk's body", () => {
  const parse = (body: unknown) => {
    const r = bulkApiBodySchema.safeParse(body);
    return r.success ? { ok: true as const, value: r.data } : { ok: false as const, fields: Object.keys(fieldErrors(r.error)) };
  };

  it("reads filters or ids, and the change, as the page's request", () => {
    expect(parse({ filters: {}, change: { delete: true } })).toEqual({ ok: true, value: { target: { filters: {} }, change: { delete: true } } });
    expect(parse({ ids: [3, 1], change: { subscription_status: "active" } })).toEqual({ ok: true, value: { target: { ids: [3, 1] }, change: { subscription_status: "active" } } });
  });

  it("refuses both or neither of filters and ids, unknown members, unknown filters and bad changes, by name", () => {
    expect(parse({ change })).toMatchObject({ ok: false, fields: ["filters"] });
    expect(parse({ ids: [1], filters: {}, change })).toMatchObject({ ok: false, fields: ["filters"] });
    expect(parse({ filters: {}, change, target: {} })).toMatchObject({ ok: false });
    expect(parse({ filters: { emial: "x" }, change })).toMatchObject({ ok: false, fields: ["filters.emial"] });
    expect(parse({ filters: {}, change: { delete: false } })).toMatchObject({ ok: false });
    expect(parse({ ids: Array.from({ length: 101 }, (_, i) => i + 1), change })).toMatchObject({ ok: false, fields: ["ids"] });
    expect(parse(["not", "an", "object"])).toMatchObject({ ok: false });
  });
});
