import { describe, expect, it } from "vitest";
import { createFormatter, createTranslator } from "use-intl/core";
import { namedRecords } from "@/app/(console)/trash/named";
import { catalogue } from "@/lib/i18n/catalogues";
import { INTL_TAG, type Locale } from "@/lib/i18n/locales";
import { problem } from "@/lib/i18n/problem";
import { problemsIn } from "@/lib/i18n/problems-in";
import { importWordsIn, oneMessage } from "@/lib/imports/words";
import { parseWith } from "@/lib/list/parse";
import { rawParams } from "@/lib/list/params";
import { branchFiltersSchema } from "@/lib/branches/filters";
import { subscriberFiltersSchema } from "@/lib/subscribers/filters";

// What French and Arabic readers read where the console once put English punctuation, lists and
// counts together in code: each language's own colon, list separators and plural forms.

const translator = (locale: Locale) => createTranslator({ locale: locale as never, messages: catalogue(locale), timeZone: "UTC" }) as unknown as (key: string, values?: Record<string, unknown>) => string;
const lists = (locale: Locale) => createFormatter({ locale: INTL_TAG[locale] as Locale, timeZone: "UTC" });

describe("the import page's rejected rows by reason", () => {
  it("put a field and its reason with the language's punctuation", () => {
    expect(translator("fr")("import.counts.fieldReason", { field: "Prénom", reason: "Renseignez ce champ." })).toBe("Prénom : Renseignez ce champ.");
    expect(translator("ar")("import.counts.fieldReason", { field: "الاسم الأول", reason: "السبب" })).toBe("الاسم الأول: السبب");
    expect(translator("en")("import.counts.fieldReason", { field: "First name", reason: "Required." })).toBe("First name: Required.");
  });
});

describe("an upload's several problems", () => {
  it("travel as one problem key, said in the reader's language", () => {
    const both = oneMessage([problem("imports.noHeader"), problem("imports.headerOnly")]);
    expect(both).toMatch(/^imports\.severalProblems /);
    const fr = importWordsIn("fr")(both);
    expect(fr).toBe(`${problemsIn("fr")(problem("imports.noHeader"))} ${problemsIn("fr")(problem("imports.headerOnly"))}`);
    expect(fr).not.toBe(importWordsIn("en")(both));
    expect(importWordsIn("ar")(both)).toBe(`${problemsIn("ar")(problem("imports.noHeader"))} ${problemsIn("ar")(problem("imports.headerOnly"))}`);
  });
});

describe("the trash's confirmation", () => {
  const named = (locale: Locale, names: string[]) => {
    const t = translator(locale);
    const format = lists(locale);
    return namedRecords(
      names.map((name) => t("trash.table.quoted", { name })),
      (items, options) => format.list(items, options),
      (list, count) => t("trash.table.andMore", { names: list, count }),
    );
  };

  it("lists names with the reader's separators and conjunction", () => {
    expect(named("fr", ["Ann", "Bo", "Cy"])).toBe("« Ann », « Bo » et « Cy »");
    expect(named("ar", ["أ", "ب", "ج"])).toBe("«⁨أ⁩» و«⁨ب⁩» و«⁨ج⁩»");
    expect(named("en", ["Ann", "Bo"])).toBe("“Ann” and “Bo”");
  });

  it("names ten, then how many more", () => {
    const twelve = Array.from({ length: 12 }, (_, i) => `N${i + 1}`);
    expect(named("fr", twelve)).toBe(`${twelve.slice(0, 10).map((n) => `« ${n} »`).join(", ")} et 2 autres`);
    expect(named("ar", twelve)).toBe(`⁨${twelve.slice(0, 10).map((n) => `«⁨${n}⁩»`).join(" و")}⁩ وسجلان آخران`);
  });
});

describe("counts before a noun", () => {
  it("take the plural form of a bulk change's progress, grouped as the language writes numbers", () => {
    const values = (done: number) => ({ done, percent: "5", started: "2 janv. 2027, 10:14" });
    const fr = translator("fr");
    expect(fr("bulk.status.progress", values(1))).toBe("1 abonné traité (5 %). Commencée le 2 janv. 2027, 10:14.");
    expect(fr("bulk.status.progress", values(0))).toBe("0 abonné traité (5 %). Commencée le 2 janv. 2027, 10:14.");
    expect(fr("bulk.status.progressFinished", { ...values(1234), finished: "3 janv. 2027, 09:00" })).toBe(
      "1\u202f234 abonnés traités (5 %). Commencée le 2 janv. 2027, 10:14, terminée le 3 janv. 2027, 09:00.",
    );
    const ar = translator("ar");
    expect(ar("bulk.status.progress", values(1))).toBe("تمت معالجة مشترك واحد (5٪). بدأ في 2 janv. 2027, 10:14.");
    expect(ar("bulk.status.progress", values(2))).toBe("تمت معالجة مشتركَين (5٪). بدأ في 2 janv. 2027, 10:14.");
    expect(ar("bulk.status.progress", values(3))).toBe("تمت معالجة 3 مشتركين (5٪). بدأ في 2 janv. 2027, 10:14.");
    expect(ar("bulk.status.progress", values(11))).toBe("تمت معالجة 11 مشتركًا (5٪). بدأ في 2 janv. 2027, 10:14.");
    // English says the count alone, as it always did ("2 done"), with its grouping.
    expect(translator("en")("bulk.status.progress", values(1))).toBe("1 done (5%). Started 2 janv. 2027, 10:14.");
    expect(translator("en")("bulk.status.progress", values(1234))).toBe("1,234 done (5%). Started 2 janv. 2027, 10:14.");
  });

  it("take the plural form of the recovery codes left", () => {
    expect(translator("fr")("twoFactor.codesLeft", { left: 1, total: 10 })).toBe("Il reste 1 code de secours sur 10.");
    expect(translator("fr")("twoFactor.codesLeft", { left: 7, total: 10 })).toBe("Il reste 7 codes de secours sur 10.");
    expect(translator("ar")("twoFactor.codesLeft", { left: 2, total: 10 })).toBe("تبقّى رمزا استرداد من أصل 10.");
    expect(translator("ar")("twoFactor.codesLeft", { left: 1, total: 10 })).toBe("تبقّى رمز استرداد واحد من أصل 10.");
    expect(translator("en")("twoFactor.codesLeft", { left: 1, total: 10 })).toBe("1 of 10 recovery codes left.");
  });
});

describe("French", () => {
  it("says “pas de doublons”", () => {
    const t = translator("fr");
    expect(t("duplicates.dismiss.label")).toBe("Pas de doublons");
    expect(t("duplicates.dismiss.title")).toBe("Pas de doublons ?");
  });
});

describe("a filter in the array form (name[]=x)", () => {
  it.each([
    ["country_name[]=x", "country_name"],
    ["country_name[0]=x&country_name[1]=y", "country_name"],
    ["country_name=x&country_name[]=y", "country_name"],
    ["subscription_status[]=active", "subscription_status"],
  ])("%s is refused, not ignored", (query, key) => {
    const parsed = parseWith(subscriberFiltersSchema, new URLSearchParams(query));
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems[key]).toEqual([problem("list.notAList")]);
    expect(parsed.fields[key]).toEqual(["Give this parameter one value (name=value), not a list (name[]=…)."]);
    expect(problemsIn("fr")(parsed.problems[key]![0]!)).toBe("Donnez à ce paramètre une seule valeur (nom=valeur), pas une liste (nom[]=…).");
    expect(problemsIn("ar")(parsed.problems[key]![0]!)).toBe("أدخل قيمة واحدة لهذه المعلمة (الاسم=القيمة)، لا قائمة (الاسم[]=…).");
  });

  it("is refused on a page's search params and on the branch list too; a key given twice is still “only once”", () => {
    expect(parseWith(subscriberFiltersSchema, { "country_name[]": "x" })).toMatchObject({ ok: false, problems: { country_name: [problem("list.notAList")] } });
    expect(parseWith(branchFiltersSchema, new URLSearchParams("name[]=x"))).toMatchObject({ ok: false, problems: { name: [problem("list.notAList")] } });
    expect(parseWith(subscriberFiltersSchema, new URLSearchParams("q=a&q=b"))).toMatchObject({ ok: false, problems: { q: [problem("list.paramOnce")] } });
    const plain = { country_name: "x" };
    expect(rawParams(plain)).toBe(plain);
    expect(parseWith(subscriberFiltersSchema, new URLSearchParams("country_name=x"))).toMatchObject({ ok: true, value: { country_name: "x" } });
  });
});

describe("counts a setting can bring down to one", () => {
  it("say a day, an hour, and two of them, in each language's forms", () => {
    const days = (locale: Locale, n: number) => translator(locale)("record.bulkNote", { days: n });
    expect(days("en", 1)).toContain("for 1 day,");
    expect(days("en", 30)).toContain("for 30 days,");
    expect(days("fr", 1)).toContain("pendant 1 jour,");
    expect(days("fr", 30)).toContain("pendant 30 jours,");
    expect(days("ar", 1)).toContain("مدة يوم واحد");
    expect(days("ar", 2)).toContain("مدة يومين");
    expect(days("ar", 3)).toContain("مدة 3 أيام");
    expect(days("ar", 30)).toContain("مدة 30 يومًا");
    const hours = (locale: Locale, n: number) => translator(locale)("problems.imports.quotaExceeded", { small: "no", inUse: 1, size: 1, quota: 5, hours: n });
    expect(hours("en", 1)).toContain("removed 1 hour after");
    expect(hours("fr", 1)).toContain("supprimés 1 heure après");
    expect(hours("ar", 1)).toContain("ساعة واحدة من آخر");
    expect(hours("ar", 24)).toContain("24 ساعة من آخر");
  });

  it("name the merged records without a plural to agree with", () => {
    expect(translator("fr")("activity.summary.merge", { merged: "nº 12", survivor: "14" })).toBe("Fusion de nº 12 dans nº 14");
  });
});
