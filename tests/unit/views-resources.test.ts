import { describe, expect, it } from "vitest";
import { checkViewColumns, checkViewQuery, filtersKey, viewHref } from "@/lib/views/resources";

// A view's query and columns by its list's own parser, and the address that opens it.

describe("saved views' queries", () => {
  it("stores what the list accepts, trimmed, empty values left out, in the given order", () => {
    expect(checkViewQuery("subscribers", "?q=  ann &email=&sort=-created_at")).toEqual({ ok: true, value: "q=ann&sort=-created_at" });
    expect(checkViewQuery("branches", "name=north&sort=name")).toEqual({ ok: true, value: "name=north&sort=name" });
    expect(checkViewQuery("subscribers", "")).toEqual({ ok: true, value: "" });
  });

  it("refuses, naming the key, what the list would refuse or ignore", () => {
    const refused = (resource: "subscribers" | "branches", query: string) => {
      const result = checkViewQuery(resource, query);
      return result.ok ? null : Object.keys(result.fields);
    };
    expect(refused("subscribers", "is_mandatory=maybe")).toEqual(["is_mandatory"]);
    expect(refused("subscribers", "constructor=1&__proto__=2")).toEqual(["constructor", "__proto__"]);
    expect(refused("branches", "q=x")).toEqual(["q"]);
    expect(refused("branches", "page=1&view=all")).toEqual(["page", "view"]);
  });

  it("counts a query's length as stored, escaped: what the list accepts may still be too long to keep", () => {
    const euros = "€".repeat(100); // 100 characters a filter, 900 as an address spells them
    const two = checkViewQuery("subscribers", `q=${euros}&first_name=${euros}`);
    expect(two.ok && two.value.length).toBe(2 + 900 + 12 + 900);
    const three = checkViewQuery("subscribers", `q=${euros}&first_name=${euros}&last_name=${euros}`);
    expect(three.ok ? null : three.fields).toEqual({ query: [expect.stringMatching(/2725 characters; a view keeps at most 2000/)] });
  });

  it("compares filters and sort as the list reads them", () => {
    const key = (query: string) => filtersKey("subscribers", new URLSearchParams(query));
    expect(key("subscription_status=active")).toBe(key("sort=-created_at&subscription_status=active&page=3&view=all"));
    expect(key("q= ann ")).toBe(key("q=ann"));
    expect(key("subscription_status=active")).not.toBe(key("subscription_status=active&sort=id"));
    expect(key("subscription_status=nope")).toBeNull();
  });

  it("opens by the list's own address, with its columns; a view of nothing is view=all", () => {
    expect(viewHref("subscribers", "q=ann", ["email", "id"])).toBe("/subscribers?q=ann&columns=email%2Cid");
    expect(viewHref("branches", "", null)).toBe("/branches?view=all");
  });

  it("columns: null, or the list's columns each once", () => {
    expect(checkViewColumns("subscribers", ["email", "id"])).toEqual({ ok: true, value: ["email", "id"] });
    expect(checkViewColumns("subscribers", null)).toEqual({ ok: true, value: null });
    expect(checkViewColumns("branches", ["name"]).ok).toBe(false);
    expect(checkViewColumns("subscribers", ["email", "email"]).ok).toBe(false);
  });
});
