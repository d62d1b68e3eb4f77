// The console's languages (docs/decisions/0048-languages.md). Pure: client components import it too.

export const LOCALES = ["en", "fr", "ar"] as const;
export type Locale = (typeof LOCALES)[number];

export const isLocale = (value: unknown): value is Locale => typeof value === "string" && (LOCALES as readonly string[]).includes(value);

/** Arabic is written right to left; `<html dir>` and the layout follow. */
export const direction = (locale: Locale): "ltr" | "rtl" => (locale === "ar" ? "rtl" : "ltr");

/** Each language's own name, as the language picker offers it (never translated: a reader finds their own). */
export const LOCALE_NAMES: Record<Locale, string> = { en: "English", fr: "Français", ar: "العربية" };

/**
 * The tag Intl formats with: English as the console has always shown it ("2 Jan 2027", docs/API.md),
 * Arabic with Western digits, which mobiles, ids and counts in the data already use.
 */
export const INTL_TAG: Record<Locale, string> = { en: "en-GB", fr: "fr", ar: "ar-u-nu-latn" };
