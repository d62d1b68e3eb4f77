-- The first-name sort in Arabic, built without blocking writes.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "subscribers_first_name_ar_idx" ON "subscribers" ("first_name" COLLATE "ar-x-icu", "id");
