-- CreateIndex
CREATE INDEX "bulk_change_rows_subscriber_id_idx" ON "bulk_change_rows"("subscriber_id");
