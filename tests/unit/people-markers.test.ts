import { describe, expect, it } from "vitest";
import { cellNames, ERASED, markersOf, mentions, names, scrub, scrubEvent, scrubQuery } from "@/lib/people/markers";

// What counts as a person's value in stored data: emails and mobiles wherever they appear, names
// only as whole values (another "Ann" keeps hers), filters that spell part of them out.

const m = markersOf({ emails: ["Ann.Lee@Example.com"], mobiles: ["+447400918273"], names: ["Ann", "Lee"] });

describe("a person's markers", () => {
  it("finds emails and mobiles inside values, names only as whole values", () => {
    expect(names("Contact ann.lee@example.COM now", m)).toBe(true);
    expect(names("+447400918273", m)).toBe(true);
    expect(names("ann", m)).toBe(true);
    expect(names("Annabel", m)).toBe(false);
    expect(names("email=ann.lee%40example.com&page=2", m)).toBe(true);
  });

  it("scrubs JSON values, keeps keys and unchanged values (the same object back)", () => {
    const untouched = { first_name: "Bob", ids: [1, 2] };
    expect(scrub(untouched, m)).toBe(untouched);
    expect(scrub({ first_name: "Ann", email: "ann.lee@example.com", n: 3, nested: [{ mobile: "+447400918273" }] }, m)).toEqual({ first_name: ERASED, email: ERASED, n: 3, nested: [{ mobile: ERASED }] });
  });

  it("treats filters apart: a partial value spelling them out goes, in queries too", () => {
    expect(scrubEvent({ filters: { email: "ann.lee", status: "active" }, total_rows: 3 }, m)).toEqual({ filters: { email: ERASED, status: "active" }, total_rows: 3 });
    expect(scrubQuery("last_name=Lee&subscription_status=active", m)).toBe(`last_name=${encodeURIComponent(ERASED)}&subscription_status=active`);
    expect(scrubQuery("subscription_status=active", m)).toBe("subscription_status=active");
  });

  it("reads a file's cells: national mobiles, names, emails", () => {
    expect(cellNames("07400 918273", m, ["+447400918273"])).toBe(true);
    expect(cellNames("07400 918274", m, ["+447400918273"])).toBe(false);
    expect(cellNames("Lee", m, [])).toBe(true);
    expect(cellNames("2027-03-01", m, ["+447400918273"])).toBe(false);
  });

  it("finds a name as a word in typed text", () => {
    expect(mentions("Ann's bookings", m)).toBe(true);
    expect(mentions("Annual bookings", m)).toBe(false);
  });
});
