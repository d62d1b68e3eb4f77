import { sql, type Statement } from "@/lib/db/sql";
import type { Locale } from "@/lib/i18n/locales";

// Names sort in the reader's language (docs/sorting-by-language.md, docs/decisions/0049-sorting-by-language.md):
// with an ICU collation, each name sort served by an index built with that same collation. CLDR's English
// and French use the root order, so one collation serves both; Arabic has its own (Arabic script first).
// The collations exist on both databases (the sort_collations migration); PGlite's ICU carries no
// language's data, so there "ar-x-icu" sorts in the root order too.

/** The ICU collations the lists sort names with, and the indexes of the sort_*_root / sort_*_ar migrations. */
export const SORT_COLLATIONS = ["und-x-icu", "ar-x-icu"] as const;
export type SortCollation = (typeof SORT_COLLATIONS)[number];

/** The collation a language's lists sort names with. */
export const SORT_COLLATION: Record<Locale, SortCollation> = { en: "und-x-icu", fr: "und-x-icu", ar: "ar-x-icu" };

/** The collation of a caller without a language (a script, a token without Accept-Language): CLDR's root order. */
export const ROOT_COLLATION: SortCollation = "und-x-icu";

// A collation's name cannot be a bound value: one literal statement per collation.
const COLLATED: Record<SortCollation, (expression: Statement) => Statement> = {
  "und-x-icu": (e) => sql`${e} COLLATE "und-x-icu"`,
  "ar-x-icu": (e) => sql`${e} COLLATE "ar-x-icu"`,
};

/** `expression COLLATE "<collation>"`: a name as the index of that collation orders it. */
export const collated = (expression: Statement, collation: SortCollation): Statement => COLLATED[collation](expression);
