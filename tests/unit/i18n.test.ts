import { describe, expect, it } from "vitest";
import { formatsFor } from "@/lib/i18n/format";
import { direction } from "@/lib/i18n/locales";
import { fromAcceptLanguage } from "@/lib/i18n/negotiate";
import { fieldWords, problem, problemWords, readProblem } from "@/lib/i18n/problem";
import { problemsIn } from "@/lib/i18n/problems-in";
import { importWordsIn, listOf } from "@/lib/imports/words";
import compile from "icu-minify/compile";
import format from "icu-minify/format";
import { pseudoCatalogue, pseudoMessage } from "@/lib/i18n/pseudo";

describe("Accept-Language", () => {
  it.each([
    ["fr-CA,fr;q=0.9,en;q=0.8", "fr"],
    ["ar-EG", "ar"],
    ["en-US,en;q=0.9", "en"],
    ["de-DE,de;q=0.9,fr;q=0.5", "fr"],
    ["en;q=0.2, ar;q=0.9", "ar"],
  ])("%s reads %s", (header, locale) => expect(fromAcceptLanguage(header)).toBe(locale));

  it.each([[""], [null], ["de-DE,de"], ["*"], ["x_y!"], ["fr;q=0"]])("%s names none of the console's languages", (header) => {
    expect(fromAcceptLanguage(header)).toBeNull();
  });

  it("mirrors Arabic only", () => {
    expect([direction("en"), direction("fr"), direction("ar")]).toEqual(["ltr", "ltr", "rtl"]);
  });
});

describe("problem keys", () => {
  it("carry a key and its values, and read back", () => {
    expect(problem("common.tooLong", { max: 100 })).toBe('common.tooLong {"max":100}');
    expect(readProblem('common.tooLong {"max":100}')).toEqual({ key: "common.tooLong", values: { max: 100 } });
    expect(readProblem("Something went wrong.")).toBeNull();
    expect(readProblem("common.x {not json")).toBeNull();
  });

  it("are put into words in each language; other text stays as it is", () => {
    const tooLong = problem("common.tooLong", { max: 100 });
    expect(problemsIn("en")(tooLong)).toBe("Use at most 100 characters.");
    expect(problemsIn("fr")(tooLong)).toBe("Saisissez au plus 100 caractères.");
    expect(problemsIn("ar")(tooLong)).toMatch(/حرف/);
    expect(problemsIn("fr")("Already words.")).toBe("Already words.");
    const quota = problem("imports.quotaExceeded", { small: "no", inUse: 0.8125, size: 1.25, quota: 2, hours: 24 });
    expect(problemsIn("en")(quota)).toMatch(/hold 0\.8 MB; with this file \(1\.3 MB\)/);
    expect(problemsIn("fr")(quota)).toMatch(/occupent 0,8 Mo ; avec ce fichier \(1,3 Mo\)/);
    expect(problemsIn("fr")("common.noSuchKey")).toBe("common.noSuchKey");
    expect(fieldWords({ name: [problem("common.required")] }, problemsIn("fr"))).toEqual({ name: ["Renseignez ce champ."] });
  });

  it("use a translator's has() before asking it", () => {
    const t = Object.assign((key: string) => `<${key}>`, { has: (key: string) => key === "known.key" });
    expect(problemWords(t, "known.key")).toBe("<known.key>");
    expect(problemWords(t, "unknown.key")).toBe("unknown.key");
  });
});

describe("formats", () => {
  const at = new Date("2027-01-02T09:14:05Z");
  it("write English as the console always has", () => {
    const f = formatsFor("en", "UTC");
    expect(f.dateTime(at)).toBe("2 Jan 2027, 09:14");
    expect(f.dateTime(at, { seconds: true })).toBe("2 Jan 2027, 09:14:05");
    expect(f.day("2027-01-02")).toBe("2 Jan 2027");
    expect(f.day("not a day")).toBe("not a day");
    expect(f.count(1234567)).toBe("1,234,567");
    expect(f.relative(new Date(at.getTime() - 120_000), at)).toBe("2 minutes ago");
    expect(f.dayRange(at, new Date("2027-01-05T00:00:00Z"))).toBe("2\u2009–\u20095 Jan 2027");
  });

  it("write French and Arabic in their own way, in the console's zone", () => {
    expect(formatsFor("fr", "Europe/Paris").dateTime(at)).toBe("2 janv. 2027, 10:14");
    expect(formatsFor("fr", "UTC").count(1234567)).toBe("1\u202f234\u202f567");
    const ar = formatsFor("ar", "UTC");
    expect(ar.day("2027-01-02")).toBe("2 يناير 2027");
    expect(ar.count(1234)).toBe("1,234");
    expect(ar.relative(new Date(at.getTime() - 120_000), at)).toBe("قبل دقيقتين");
  });
});

describe("the pseudo-language", () => {
  it("accents and lengthens the words, keeping placeholders, plurals and tags", () => {
    expect(pseudoMessage("Sign in")).toBe("⟦Šîĝñ îñ···⟧");
    const plural = pseudoMessage("{count, plural, one {# row} other {# rows}} selected");
    expect(plural).toContain("{count,plural,one{# ŕöŵ} other{# ŕöŵš}}");
    expect(pseudoMessage("Use <b>{name}</b> now")).toContain("<b>{name}</b>");
  });

  it("does the same to a catalogue the build compiled (next.config.js precompiles them)", () => {
    const compiled = { plain: compile("Sign in"), rich: compile("{count, plural, one {# row} other {# rows}} of <b>{name}</b>, {total, number}") };
    const pseudo = pseudoCatalogue(compiled);
    expect(pseudo.plain).toBe("⟦Šîĝñ îñ···⟧");
    const formatters = {
      getNumberFormat: (...a: ConstructorParameters<typeof Intl.NumberFormat>) => new Intl.NumberFormat(...a),
      getPluralRules: (...a: ConstructorParameters<typeof Intl.PluralRules>) => new Intl.PluralRules(...a),
      getDateTimeFormat: (...a: ConstructorParameters<typeof Intl.DateTimeFormat>) => new Intl.DateTimeFormat(...a),
    };
    const text = format(pseudo.rich, "en", { count: 2, name: "Ana", total: 1234, b: (chunks) => `[${chunks.join("")}]` }, { formatters, timeZone: "UTC" });
    expect(text).toMatch(/^⟦2 ŕöŵš öƒ \[Ana\], 1,234·+⟧$/);
  });
});

describe("an import's words", () => {
  it("name fields by their labels in the reader's language", () => {
    const twice = problem("imports.filledTwice", { field: "first_name", count: 2 });
    expect(importWordsIn("en")(twice)).toMatch(/^First name is filled from 2 columns/);
    expect(importWordsIn("fr")(twice)).toMatch(/^Prénom est rempli/);
    const missing = problem("imports.requiredMissing", { fields: listOf(["first_name", "travel_date"]), count: 2 });
    expect(importWordsIn("fr")(missing)).toContain("Prénom, Date de voyage");
  });
});
