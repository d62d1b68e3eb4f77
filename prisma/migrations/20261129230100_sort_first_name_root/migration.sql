-- The first-name sort in English and French (the root order), built without blocking writes.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "subscribers_first_name_root_idx" ON "subscribers" ("first_name" COLLATE "und-x-icu", "id");
