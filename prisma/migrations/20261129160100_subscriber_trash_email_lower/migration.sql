-- A person's records in the trash, by email as the duplicate rule compares it (by hand: Prisma's
-- schema has no expression index).
CREATE INDEX CONCURRENTLY IF NOT EXISTS "subscriber_trash_email_lower_idx" ON "subscriber_trash" (lower("email"));
