import { describe, expect, it } from "vitest";
import { backQuery, listAddress, listBack, listBackSchema } from "@/lib/subscribers/back";

// `?back=` leads to the subscriber list as it was, and nowhere else: an open redirect otherwise.
describe("listBack", () => {
  it("keeps a list address with its filters, sort, page and columns", () => {
    const address = "/subscribers?subscription_status=active&sort=last_name&page=3&columns=id%2Clast_name";
    expect(listBack(address)).toBe(address);
    expect(listBack("/subscribers")).toBe("/subscribers");
  });

  it.each([
    "//evil.example/subscribers",
    "/subscribers//evil.example",
    "https://evil.example/subscribers",
    "javascript:alert(1)",
    "/\\evil.example",
    "/subscribers\\@evil.example",
    "/subscribers/12",
    "/subscribersx",
    "/users?role=admin",
    "subscribers?q=a",
    "/subscribers?q=a b",
    "/subscribers?q=\n",
    `/subscribers?q=${"a".repeat(2048)}`,
  ])("refuses %j (the bare list instead)", (value) => {
    expect(listBackSchema.safeParse(value).success).toBe(false);
    expect(listBack(value)).toBe("/subscribers");
  });

  it("refuses what is not one text", () => {
    expect(listBack(undefined)).toBe("/subscribers");
    expect(listBack(["/subscribers?page=2", "/subscribers"])).toBe("/subscribers");
  });
});

describe("listAddress and backQuery", () => {
  it("carry the list's query, escaped, and nothing for the bare list", () => {
    const address = listAddress({ q: "a//b c", sort: "-id", page: "2" });
    expect(address).toBe("/subscribers?q=a%2F%2Fb+c&sort=-id&page=2");
    expect(listBack(address)).toBe(address);
    expect(backQuery(address)).toBe(`?back=${encodeURIComponent(address)}`);
    expect(backQuery(listAddress({}))).toBe("");
  });
});
