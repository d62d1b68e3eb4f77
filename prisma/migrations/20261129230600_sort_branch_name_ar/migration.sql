-- Live branches by name in Arabic.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "branches_name_ar_idx" ON "branches" ((lower("name") COLLATE "ar-x-icu"), "id") WHERE "deleted_at" IS NULL;
