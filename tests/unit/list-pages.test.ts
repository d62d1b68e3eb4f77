import { describe, expect, it } from "vitest";
import { refusedListQuery } from "@/lib/list/pages";

// A list page whose query its filters refuse answers 400 (the proxy asks lib/list/pages.ts; the
// page explains each bad value): the trash and the duplicates review as much as the other lists.

describe("refusedListQuery", () => {
  const query = (text: string) => new URLSearchParams(text);

  it("refuses a parameter sent twice, and a bad page, on every list page", () => {
    for (const path of ["/subscribers", "/subscribers/duplicates", "/branches", "/users", "/audit", "/trash", "/views", "/webhooks"]) {
      expect(refusedListQuery(path, query("")), path).toBe(false);
      expect(refusedListQuery(path, query("page=2")), path).toBe(false);
      for (const bad of ["page=1&page=2", "page=0", "page=abc", "page=1e3", "page=%201x"]) expect(refusedListQuery(path, query(bad)), `${path}?${bad}`).toBe(true);
    }
  });

  it("reads the trash's kind and filters as its page does", () => {
    for (const good of ["kind=branches", "kind=subscribers&name=ada&sort=id", "deleted_from=2026-01-01&deleted_to=2026-12-31"]) expect(refusedListQuery("/trash", query(good)), good).toBe(false);
    for (const bad of ["kind=subscribers&kind=branches", "kind=a&kind=b", "kind=users", "sort=name", "sort=id&sort=-id", "deleted_from=0000-01-01"]) {
      expect(refusedListQuery("/trash", query(bad)), bad).toBe(true);
    }
    expect(refusedListQuery("/subscribers/duplicates", query("rule=email&rule=mobile"))).toBe(true);
    // The views page reads its resource and back leniently, as before it was paged.
    expect(refusedListQuery("/views", query("resource=audit&back=%2Fsubscribers"))).toBe(false);
  });

  it("leaves pages that are not lists alone", () => {
    for (const path of ["/trash/x", "/subscribers/1", "/account", "/login", "/constructor", "/__proto__"]) expect(refusedListQuery(path, query("page=0")), path).toBe(false);
  });
});
