-- Live branches by name in English and French (the root order): the branch list's name sort and the
-- subscriber list's branch sort walk it (as branches_name_lower_key in code-point order).
CREATE INDEX CONCURRENTLY IF NOT EXISTS "branches_name_root_idx" ON "branches" ((lower("name") COLLATE "und-x-icu"), "id") WHERE "deleted_at" IS NULL;
