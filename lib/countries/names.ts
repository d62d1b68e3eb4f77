import "server-only";
import { cache } from "react";
import { INTL_TAG, type Locale } from "@/lib/i18n/locales";
import { countries } from "./local-names";
import { listCountries } from "./queries";

// Countries as pages show them: in the reader's language, from their ISO code (the database keeps
// the English name, which the API and the exports answer unchanged). English reads the stored name.

/** A country's name in `locale`; the stored (English) name when the package has none. */
export function countryName(locale: Locale, country: { code: string | null; name: string }): string {
  if (locale === "en" || !country.code) return country.name;
  return countries.getName(country.code.trim(), locale, { select: "official" }) ?? country.name;
}

/** Every country with its name in `locale`, ordered as a reader of that language looks one up. */
export async function localCountries(locale: Locale): Promise<{ id: number; name: string; code: string }[]> {
  const all = await listCountries();
  if (locale === "en") return all;
  const collator = new Intl.Collator(INTL_TAG[locale], { sensitivity: "base" });
  return all.map((c) => ({ ...c, name: countryName(locale, c) })).sort((a, b) => collator.compare(a.name, b.name) || a.id - b.id);
}

/** The countries' codes by their stored names, read once per request. */
const codesByName = cache(async () => new Map((await listCountries()).map((c) => [c.name, c.code])));

/**
 * Puts stored country names (a list row's, a record's) into `locale`. English costs nothing: the
 * stored name is English.
 */
export async function countryNamer(locale: Locale): Promise<(name: string) => string> {
  if (locale === "en") return (name) => name;
  const codes = await codesByName();
  return (name) => {
    const code = codes.get(name);
    return code ? countryName(locale, { code, name }) : name;
  };
}
