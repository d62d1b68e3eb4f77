import { describe, expect, it } from "vitest";
import { createTranslator } from "use-intl/core";
import type { FilterField } from "@/components/list/filter-bar";
import { chipWords, filterChips } from "@/components/list/filter-chip-words";
import { catalogue } from "@/lib/i18n/catalogues";
import { shownErased, shownViewName } from "@/lib/people/erased-words";
import { cellNames, ERASED, erasedViewName, markersOf, mentions, names, scrub, scrubEvent, scrubQuery } from "@/lib/people/markers";

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

describe("what an erasure left, as pages show it", () => {
  const say = (locale: "en" | "fr" | "ar") => createTranslator({ locale, messages: catalogue(locale) }) as unknown as Parameters<typeof shownViewName>[1];
  const words = (locale: "en" | "fr" | "ar") => {
    const list = createTranslator({ locale, messages: catalogue(locale), namespace: "list" });
    return chipWords(list, (d) => d, list("filterBar.erased"));
  };
  const search: FilterField = { kind: "text", name: "q", label: "Search" } as FilterField;

  it("names a view the erasure renamed, and the marker, in the reader's language; other names stay as typed", () => {
    expect(shownViewName({ id: 12, name: erasedViewName(12) }, say("en"))).toBe("Erased view 12");
    expect(shownViewName({ id: 12, name: erasedViewName(12) }, say("fr"))).toBe("Vue effacée 12");
    expect(shownViewName({ id: 12, name: erasedViewName(12) }, say("ar"))).toBe("طريقة عرض ممحوّة 12");
    expect(shownViewName({ id: 13, name: erasedViewName(12) }, say("fr"))).toBe("Erased view 12");
    expect(shownViewName({ id: 5, name: "Active in Leeds" }, say("ar"))).toBe("Active in Leeds");
    expect(shownErased(ERASED, say("fr"))).toBe("[effacé]");
    expect(shownErased(ERASED, say("ar"))).toBe("[ممحوّ]");
  });

  it("says a filter value the erasure replaced in the chips' language (a view's, a bulk change's, an export's)", () => {
    expect(filterChips([search], { q: ERASED }, words("fr"))).toEqual([{ key: "q", label: "Search", value: "[effacé]" }]);
    expect(filterChips([search], { q: ERASED }, words("ar"))).toEqual([{ key: "q", label: "Search", value: "[ممحوّ]" }]);
    expect(filterChips([search], { q: ERASED })).toEqual([{ key: "q", label: "Search", value: "[erased]" }]);
  });
});
