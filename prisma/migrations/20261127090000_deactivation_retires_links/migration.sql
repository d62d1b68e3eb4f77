-- Written by hand: deactivating a user retires their unused set-password links, however it is
-- done (the users page, the API, an operator's SQL), as the triggers of 20261123120000 and
-- 20261124022023 end their sessions and revoke their tokens: reactivating the user never brings
-- an old link back. (A link is also refused while its user is inactive: lib/users/links.ts.)
CREATE FUNCTION "users_deactivation_retires_links"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "password_links" SET "expires_at" = now() WHERE "user_id" = NEW."id" AND "used_at" IS NULL AND "expires_at" > now();
  RETURN NULL;
END;
$$;

CREATE TRIGGER "users_deactivation_retires_links"
  AFTER UPDATE OF "active" ON "users"
  FOR EACH ROW WHEN (OLD."active" AND NOT NEW."active")
  EXECUTE FUNCTION "users_deactivation_retires_links"();
