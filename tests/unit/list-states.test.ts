import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { NextIntlClientProvider } from "next-intl";
import { describe, expect, it } from "vitest";
import { InvalidQuery, LIST_NOUNS, ResultSummary } from "@/components/list/list-states";
import { catalogue } from "@/lib/i18n/catalogues";
import { LOCALES, type Locale } from "@/lib/i18n/locales";
import { InEnglish } from "../helpers/english";

// The notice of a list address that cannot be read: its "Drop those values" link keeps the rest.

describe("InvalidQuery", () => {
  it("drops only the values that could not be read, whatever the other names are", () => {
    const html = renderToStaticMarkup(
      createElement(
        InEnglish,
        null,
        createElement(InvalidQuery, { fields: { page: ["page must be a whole number, 1 or more."] }, path: "/subscribers", params: { page: "abc", constructor: "x", q: "ro" } }),
      ),
    );
    expect(html).toContain('href="/subscribers?constructor=x&amp;q=ro"');
  });
});

// The summary counts the rows with the language's plural forms and separators, for every list.
describe("ResultSummary", () => {
  const Provider = NextIntlClientProvider as unknown as React.FC<{ locale: string; timeZone: string; messages: object; children?: React.ReactNode }>;
  const summary = (locale: Locale, noun: (typeof LIST_NOUNS)[number], total: number, rows = Math.min(total, 10)) =>
    renderToStaticMarkup(
      createElement(
        Provider,
        { locale, timeZone: "UTC", messages: catalogue(locale) },
        createElement(ResultSummary, { pagination: { total, length: Math.ceil(total / 10), page: 1, per_page: 10 }, rows, noun }),
      ),
    ).replace(/<[^>]+>/g, "");

  it("reads in French and Arabic with their plurals and digit grouping", () => {
    expect(summary("en", "subscribers", 1_000_000)).toBe("Showing 1–10 of 1,000,000 subscribers");
    // French groups digits with a narrow no-break space; the noun agrees with the count.
    expect(summary("fr", "subscribers", 1_000_000).replace(/\s/g, " ")).toBe("1–10 sur 1 000 000 abonnés");
    expect(summary("fr", "subscribers", 1)).toBe("1–1 sur 1 abonné");
    // Arabic has a dual: two subscribers are one word, three are counted.
    expect(summary("ar", "subscribers", 2)).toBe("عرض \u20661–2\u2069 من مشتركَين");
    expect(summary("ar", "subscribers", 3)).toBe("عرض \u20661–3\u2069 من 3 مشتركين");
  });

  it("has words for every list's noun in every language, none of them English outside English", () => {
    for (const locale of LOCALES) {
      for (const noun of LIST_NOUNS) {
        for (const total of [0, 1, 2, 5, 11, 1234]) {
          const text = summary(locale, noun, total);
          expect(text).not.toMatch(/nouns\.|\{|\}/);
          if (locale === "ar") expect(text).not.toMatch(/[A-Za-z]/);
        }
      }
    }
    expect(summary("fr", "endpoints", 0)).toBe("Aucun point de terminaison");
  });
});
