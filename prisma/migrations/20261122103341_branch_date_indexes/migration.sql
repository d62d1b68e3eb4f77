-- CreateIndex
CREATE INDEX "branches_created_at_id_idx" ON "branches"("created_at", "id");

-- CreateIndex
CREATE INDEX "branches_updated_at_id_idx" ON "branches"("updated_at", "id");
