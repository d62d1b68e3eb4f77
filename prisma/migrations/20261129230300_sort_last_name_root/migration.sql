-- The last-name sort in English and French (the root order), built without blocking writes.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "subscribers_last_name_root_idx" ON "subscribers" ("last_name" COLLATE "und-x-icu", "id");
