-- The user's language (docs/decisions/0048-languages.md); NULL: follow the browser's Accept-Language.
-- Its values (en, fr, ar) are checked where it is written (lib/users/schema.ts), as the role's are.
ALTER TABLE "users" ADD COLUMN "locale" VARCHAR(8);
