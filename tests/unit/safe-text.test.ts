import { describe, expect, it } from "vitest";
import { branchInputSchema } from "@/lib/branches/schema";
import { subscriberInputSchema } from "@/lib/subscribers/schema";
import { BIDI_CONTROLS_MESSAGE, INVISIBLE_AT_AN_END_MESSAGE, unsafeTextProblems } from "@/lib/validation/text";
import { CONTROL_CHARACTERS_MESSAGE } from "@/lib/validation/common";

// Issue 19, point 6: names refuse what lets one value rewrite how others read (bidi overrides and
// isolates), what breaks a line (C0, C1, U+2028, U+2029) and what hides at either end; the
// joiners real names need inside a word stay allowed.

const ZWNJ = "\u200c";
const ZWJ = "\u200d";

/** Real names and words, as people type them. */
const REAL_NAMES = [
  `نیک${ZWNJ}نام`, // Persian: Niknam, with the zero-width non-joiner its spelling needs
  `علی${ZWNJ}رضا`, // Persian: Alireza
  "مهرآفرین", // Persian: Mehrafarin
  `می${ZWNJ}خواهم`, // Persian: "I want", the textbook case for ZWNJ
  "عبد الله", // Arabic: Abdullah
  "فاطمة الزهراء", // Arabic
  "שׁוֹשַׁנָּה", // Hebrew with vowel points: Shoshana
  "בן־גוריון", // Hebrew with maqaf: Ben-Gurion
  `श्${ZWJ}याम`, // Devanagari: Shyam, the half form asked for with a zero-width joiner
  `ශ්${ZWJ}රී මතී`, // Sinhala: the "Sri" of names, written with ZWJ
  "Zoë O'Brien-Łukasiewicz",
  "李小龍",
  `Ana 👩${ZWJ}💻`, // an emoji sequence joined inside
];

const valid = (name: string) => branchInputSchema.safeParse({ name });
const subscriber = (first_name: string, last_name = "Lovelace") =>
  subscriberInputSchema.safeParse({ first_name, last_name, email: "ada@example.com", mobile: "+44 7400 123456", subscription_status: "active", is_mandatory: false });

describe("names", () => {
  it("take real names in every script, joiners inside a word included", () => {
    for (const name of REAL_NAMES) {
      expect(unsafeTextProblems(name), name).toEqual([]);
      expect(valid(name).success, name).toBe(true);
      expect(subscriber(name, name).success, name).toBe(true);
      expect(subscriberInputSchema.shape.sheet_name.safeParse(name).success, name).toBe(true);
    }
  });

  it("keep the joiner stored exactly where it was typed", () => {
    const parsed = valid(`  نیک${ZWNJ}نام  `);
    expect(parsed.success && parsed.data.name).toBe(`نیک${ZWNJ}نام`);
  });

  it("refuse bidi embeddings, overrides and isolates anywhere", () => {
    for (let code = 0x202a; code <= 0x202e; code++) expectRefused(`Ada ${String.fromCodePoint(code)}ecalvoL`, BIDI_CONTROLS_MESSAGE);
    for (let code = 0x2066; code <= 0x2069; code++) expectRefused(`Ada ${String.fromCodePoint(code)}Lovelace`, BIDI_CONTROLS_MESSAGE);
    expectRefused("invoice\u202egnp.exe", BIDI_CONTROLS_MESSAGE);
  });

  it("refuse C0 and C1 controls, DEL, and line and paragraph separators, even at the ends", () => {
    for (const c of ["\u0000", "\u0001", "\t", "\n", "\r", "\u001b", "\u007f", "\u0080", "\u0085", "\u009b", "\u009f", "\u2028", "\u2029"]) {
      expectRefused(`Ada${c}Lovelace`, CONTROL_CHARACTERS_MESSAGE);
      expectRefused(`Ada Lovelace${c}`, CONTROL_CHARACTERS_MESSAGE);
    }
  });

  it("refuse invisible characters at either end, spaces around them or not", () => {
    for (const c of ["\u200b", "\ufeff", ZWNJ, ZWJ, "\u200e", "\u200f", "\u2060", "\u061c"]) {
      expectRefused(`${c}Ada`, INVISIBLE_AT_AN_END_MESSAGE);
      expectRefused(`Ada${c}`, INVISIBLE_AT_AN_END_MESSAGE);
      expectRefused(` ${c} Ada `, INVISIBLE_AT_AN_END_MESSAGE);
      expectRefused(`نیک${ZWNJ}نام${c}`, INVISIBLE_AT_AN_END_MESSAGE);
    }
  });

  it("refuse a broken character (an unpaired surrogate)", () => {
    expect(valid("Ada \ud83d").success).toBe(false);
    expect(valid("Ada \ude00 Lovelace").success).toBe(false);
    expect(valid("Ada 😀").success).toBe(true);
  });

  it("apply to every typed name: branch, first and last name, sheet", () => {
    const bad = "Ada\u202eLovelace";
    expect(valid(bad).success).toBe(false);
    expect(subscriber(bad).success).toBe(false);
    expect(subscriber("Ada", bad).success).toBe(false);
    expect(subscriberInputSchema.shape.sheet_name.safeParse(bad).success).toBe(false);
  });
});

function expectRefused(name: string, message: string) {
  const shown = JSON.stringify(name);
  expect(unsafeTextProblems(name), shown).toContain(message);
  const parsed = valid(name);
  expect(parsed.success, shown).toBe(false);
  if (!parsed.success) expect(parsed.error.issues.map((i) => i.message), shown).toContain(message);
}
