-- A person's records in the trash, by mobile: the record page counts them for its erasure.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "subscriber_trash_mobile_idx" ON "subscriber_trash"("mobile");
