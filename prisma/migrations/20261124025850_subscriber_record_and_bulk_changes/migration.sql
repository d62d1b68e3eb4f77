-- CreateEnum
CREATE TYPE "BulkChangeStatus" AS ENUM ('in_queue', 'running', 'completed', 'failed');

-- AlterTable
ALTER TABLE "subscribers" ADD COLUMN     "updated_at" TIMESTAMPTZ(6);

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "preferences" JSONB NOT NULL DEFAULT '{}';

-- CreateTable
CREATE TABLE "bulk_changes" (
    "id" VARCHAR(32) NOT NULL,
    "user_id" INTEGER NOT NULL,
    "status" "BulkChangeStatus" NOT NULL DEFAULT 'in_queue',
    "target" JSONB NOT NULL,
    "change" JSONB NOT NULL,
    "total_rows" INTEGER NOT NULL DEFAULT 0,
    "processed_rows" INTEGER NOT NULL DEFAULT 0,
    "last_id" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "job_id" VARCHAR(64),
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(6),

    CONSTRAINT "bulk_changes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "bulk_changes_user_id_created_at_idx" ON "bulk_changes"("user_id", "created_at");

-- CreateIndex
CREATE INDEX "audit_events_entity_entity_id_at_idx" ON "audit_events"("entity", "entity_id", "at");

-- AddForeignKey
ALTER TABLE "bulk_changes" ADD CONSTRAINT "bulk_changes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
