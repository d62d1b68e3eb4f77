-- The last-name sort in Arabic, built without blocking writes.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "subscribers_last_name_ar_idx" ON "subscribers" ("last_name" COLLATE "ar-x-icu", "id");
