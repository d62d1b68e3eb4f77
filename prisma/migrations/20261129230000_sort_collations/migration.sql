-- Sorting by the reader's language (docs/decisions/0049-sorting-by-language.md): names sort with
-- an ICU collation, "und-x-icu" (CLDR's root order, which English and French use) or "ar-x-icu"
-- (Arabic's tailoring: Arabic script first). A PostgreSQL server built with ICU has both in
-- pg_catalog already and this does nothing; PGlite has only "und-x-icu" and ICU without the
-- languages' data, so "ar-x-icu" is made there and sorts in the root order. The indexes of the
-- name sorts (the next migrations) and the lists' ORDER BY name them the same on both databases.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu') THEN
    CREATE COLLATION "und-x-icu" (provider = icu, locale = 'und');
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'ar-x-icu') THEN
    CREATE COLLATION "ar-x-icu" (provider = icu, locale = 'ar');
  END IF;
END $$;
