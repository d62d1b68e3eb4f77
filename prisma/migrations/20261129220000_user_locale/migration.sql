-- The user's language (docs/decisions/0048-languages.md); NULL: follow the browser's Accept-Language.
ALTER TABLE "users" ADD COLUMN "locale" VARCHAR(8);
ALTER TABLE "users" ADD CONSTRAINT "users_locale_check" CHECK ("locale" IN ('en', 'fr', 'ar'));
