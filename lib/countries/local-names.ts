import countries from "i18n-iso-countries";
import ar from "i18n-iso-countries/langs/ar.json";
import fr from "i18n-iso-countries/langs/fr.json";

// Country names in the console's other languages, from their ISO code (the database keeps the
// English name). Read by pages (lib/countries/names.ts) and by the subscribers' country filter,
// which a French or Arabic reader fills in their own words.

countries.registerLocale(fr);
countries.registerLocale(ar);

export { countries };

/** Every French and Arabic name (official and usual) of each code, lower-cased for matching. */
let localNames: [code: string, names: string[]][] | null = null;

/**
 * The codes of the countries whose French or Arabic name contains `text`, in any case: the
 * country filter matches these as well as the stored English names, so a page, the API and an
 * export made with the same filter hold the same rows whatever language they are read in.
 */
export function countryCodesNamed(text: string): string[] {
  localNames ??= Object.keys(countries.getAlpha2Codes()).map((code) => [
    code,
    [...(countries.getName(code, "fr", { select: "all" }) ?? []), ...(countries.getName(code, "ar", { select: "all" }) ?? [])].map((n) => n.toLowerCase()),
  ]);
  const needle = text.toLowerCase();
  return localNames.filter(([, names]) => names.some((n) => n.includes(needle))).map(([code]) => code);
}
