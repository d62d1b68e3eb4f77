import { describe, expect, it } from "vitest";
import { DEFAULT_TABLE_SETTINGS, settingsFromForm, tableSettings } from "@/lib/subscribers/columns";
import { SUBSCRIBER_FIELDS } from "@/lib/subscribers/filters";

// The subscriber table's settings: what the column chooser's form saves, and how they are read
// back from a user's stored preferences (lib/subscribers/columns.ts).

const form = (entries: [string, string][]) => {
  const f = new FormData();
  for (const [k, v] of entries) f.append(k, v);
  return f;
};
const showing = (columns: string[], extra: [string, string][] = []) => form([...columns.map((c): [string, string] => ["show", c]), ...extra]);

describe("settingsFromForm (the column chooser)", () => {
  it("hides every column not ticked, in the table's order, with the density chosen", () => {
    expect(settingsFromForm(showing(["first_name", "id", "email"], [["density", "compact"]]))).toEqual({
      hidden: SUBSCRIBER_FIELDS.filter((c) => !["id", "first_name", "email"].includes(c)),
      density: "compact",
    });
  });

  it("keeps every column ticked as a choice; none ticked is no choice (a table of no column is not one)", () => {
    expect(settingsFromForm(showing([...SUBSCRIBER_FIELDS]))).toEqual({ hidden: [], density: "comfortable" });
    expect(DEFAULT_TABLE_SETTINGS).toEqual({ hidden: null, density: "comfortable" });
    expect(settingsFromForm(form([]))).toEqual(DEFAULT_TABLE_SETTINGS);
    expect(settingsFromForm(showing(["password", "constructor", "__proto__"]))).toEqual(DEFAULT_TABLE_SETTINGS);
  });

  it("ignores names that are no column, and a column ticked twice", () => {
    expect(settingsFromForm(showing(["email", "email", "toString", "is_duplicate"])).hidden).toEqual(SUBSCRIBER_FIELDS.filter((c) => c !== "email" && c !== "is_duplicate"));
  });

  it("reads any density but compact as comfortable", () => {
    for (const density of ["comfortable", "COMPACT", "dense", ""]) expect(settingsFromForm(showing(["id"], [["density", density]])).density, density).toBe("comfortable");
    expect(settingsFromForm(showing(["id"])).density).toBe("comfortable");
  });

  it("resets to no choice (the columns that fit the screen), comfortable, whatever else the form holds", () => {
    expect(settingsFromForm(showing(["id"], [["density", "compact"], ["reset", ""]]))).toEqual(DEFAULT_TABLE_SETTINGS);
  });
});

describe("tableSettings (stored preferences)", () => {
  it("reads what the chooser saved, and keeps other preferences' keys apart", () => {
    expect(tableSettings({ subscriberTable: { hidden: ["email", "mobile"], density: "compact" }, theme: "dark" })).toEqual({ hidden: ["email", "mobile"], density: "compact" });
  });

  it("falls back to the default for anything it cannot read", () => {
    for (const stored of [null, undefined, "x", 5, [], {}, { subscriberTable: null }, { subscriberTable: { hidden: "email", density: 3 } }]) {
      expect(tableSettings(stored), JSON.stringify(stored)).toEqual(DEFAULT_TABLE_SETTINGS);
    }
    // An unknown column, or every column hidden, is not kept: no choice, the columns that fit the screen.
    expect(tableSettings({ subscriberTable: { hidden: ["email", "password"] } }).hidden).toBeNull();
    expect(tableSettings({ subscriberTable: { hidden: [...SUBSCRIBER_FIELDS] } }).hidden).toBeNull();
    expect(tableSettings({ subscriberTable: { hidden: null, density: "compact" } })).toEqual({ hidden: null, density: "compact" });
  });

  it("keeps a choice of every column apart from no choice", () => {
    expect(tableSettings({ subscriberTable: { hidden: [], density: "comfortable" } }).hidden).toEqual([]);
    expect(tableSettings({ subscriberTable: { density: "compact" } }).hidden).toBeNull();
  });
});
