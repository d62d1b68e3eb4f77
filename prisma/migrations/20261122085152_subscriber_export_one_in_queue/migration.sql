-- CreateIndex
CREATE UNIQUE INDEX "subscriber_exports_one_in_queue_per_user" ON "subscriber_exports"("user_id") WHERE (status = 'in_queue');
