-- Countries by name in English and French (the root order): the subscriber list's country sort walks it.
-- By lower(name), as branches (and the engine then leaves this expression index to the migrations).
CREATE INDEX CONCURRENTLY IF NOT EXISTS "countries_name_root_idx" ON "countries" ((lower("name") COLLATE "und-x-icu"), "id");
