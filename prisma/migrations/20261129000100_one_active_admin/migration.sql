-- Written by hand: there is always at least one active administrator, whatever takes the role or
-- `active` away (the users page, the API, a single sign-on's groups, an operator's SQL), or deletes
-- the user. After the change, under one transaction-scoped advisory lock, another active admin must
-- remain: two demotions of the last two admins at once take turns here and the second is refused.
-- The lock is taken only when an active admin is being taken away. The check reads a fresh snapshot
-- after the lock under READ COMMITTED, the isolation every write of the console runs in.
-- SQLSTATE CA001 is ours: lib/db/errors.ts answers it as 422 `last_admin`. TRUNCATE fires no row trigger.
CREATE FUNCTION "users_keep_an_active_admin"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('users:one-active-admin', 0));
  IF NOT EXISTS (SELECT 1 FROM "users" WHERE "role" = 'admin' AND "active") THEN
    RAISE EXCEPTION 'last_admin: % is the last active administrator', OLD."email" USING ERRCODE = 'CA001';
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "users_keep_an_active_admin_update"
  AFTER UPDATE OF "role", "active" ON "users"
  FOR EACH ROW WHEN (OLD."role" = 'admin' AND OLD."active" AND (NEW."role" <> 'admin' OR NOT NEW."active"))
  EXECUTE FUNCTION "users_keep_an_active_admin"();

CREATE TRIGGER "users_keep_an_active_admin_delete"
  AFTER DELETE ON "users"
  FOR EACH ROW WHEN (OLD."role" = 'admin' AND OLD."active")
  EXECUTE FUNCTION "users_keep_an_active_admin"();
