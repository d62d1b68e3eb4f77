-- Countries by name in Arabic.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "countries_name_ar_idx" ON "countries" ((lower("name") COLLATE "ar-x-icu"), "id");
