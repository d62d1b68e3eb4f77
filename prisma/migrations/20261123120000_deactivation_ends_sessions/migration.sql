-- Written by hand (Prisma's schema language has no functions or triggers): deactivating a user
-- ends every session they have, however it is done (the console, a script, an operator's SQL).
-- Sessions carry the user's session_version; moving it with the deactivation makes every cookie
-- issued before it useless for good, so reactivating the user never brings an old cookie back.
-- A plain semicolon inside the function body: migrations run as whole scripts on PGlite and on
-- PostgreSQL alike (lib/db/migrate.ts), so the `\073` spelling of earlier migrations is no
-- longer needed.
CREATE FUNCTION "users_deactivation_ends_sessions"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."session_version" := OLD."session_version" + 1;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "users_deactivation_ends_sessions"
  BEFORE UPDATE OF "active" ON "users"
  FOR EACH ROW WHEN (OLD."active" AND NOT NEW."active")
  EXECUTE FUNCTION "users_deactivation_ends_sessions"();
