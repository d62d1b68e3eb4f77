-- The record's history finds bulk changes by filters through their rows; built without blocking
-- the bulk changes that write them (docs/decisions/0044-expand-and-contract.md).
CREATE INDEX CONCURRENTLY IF NOT EXISTS "bulk_change_rows_subscriber_id_idx" ON "bulk_change_rows"("subscriber_id");
