-- AlterTable
ALTER TABLE "branches" ADD COLUMN     "deleted_at" TIMESTAMPTZ(6),
ADD COLUMN     "deleted_by" INTEGER;

-- AlterTable
ALTER TABLE "bulk_changes" ADD COLUMN     "changed_rows" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "skipped_rows" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "undo_of" VARCHAR(32);

-- CreateTable
CREATE TABLE "subscriber_trash" (
    "id" INTEGER NOT NULL,
    "first_name" VARCHAR(100) NOT NULL,
    "last_name" VARCHAR(100) NOT NULL,
    "email" VARCHAR(254) NOT NULL,
    "mobile" VARCHAR(16) NOT NULL,
    "branch_id" INTEGER,
    "country_id" INTEGER,
    "sheet_id" INTEGER,
    "travel_date" DATE,
    "subscription_status" "SubscriptionStatus" NOT NULL,
    "is_duplicate" BOOLEAN NOT NULL,
    "is_mandatory" BOOLEAN NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6),
    "deleted_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_by" INTEGER,
    "merged_into" INTEGER,
    "bulk_change_id" VARCHAR(32),

    CONSTRAINT "subscriber_trash_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bulk_change_rows" (
    "bulk_change_id" VARCHAR(32) NOT NULL,
    "subscriber_id" INTEGER NOT NULL,
    "old_status" "SubscriptionStatus",
    "old_mandatory" BOOLEAN,
    "changed_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "bulk_change_rows_pkey" PRIMARY KEY ("bulk_change_id","subscriber_id")
);

-- CreateIndex
CREATE INDEX "subscriber_trash_deleted_at_id_idx" ON "subscriber_trash"("deleted_at", "id");

-- CreateIndex
CREATE INDEX "subscriber_trash_bulk_change_id_id_idx" ON "subscriber_trash"("bulk_change_id", "id");

-- CreateIndex
CREATE INDEX "subscriber_trash_merged_into_idx" ON "subscriber_trash"("merged_into");

-- CreateIndex
CREATE INDEX "subscriber_trash_branch_id_idx" ON "subscriber_trash"("branch_id");

-- CreateIndex
CREATE INDEX "branches_trash_idx" ON "branches"("deleted_at", "id") WHERE (deleted_at IS NOT NULL);

-- CreateIndex
CREATE UNIQUE INDEX "bulk_changes_one_undo" ON "bulk_changes"("undo_of") WHERE (undo_of IS NOT NULL AND status <> 'failed');

-- AddForeignKey
ALTER TABLE "branches" ADD CONSTRAINT "branches_deleted_by_fkey" FOREIGN KEY ("deleted_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriber_trash" ADD CONSTRAINT "subscriber_trash_branch_id_fkey" FOREIGN KEY ("branch_id") REFERENCES "branches"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriber_trash" ADD CONSTRAINT "subscriber_trash_country_id_fkey" FOREIGN KEY ("country_id") REFERENCES "countries"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriber_trash" ADD CONSTRAINT "subscriber_trash_sheet_id_fkey" FOREIGN KEY ("sheet_id") REFERENCES "sheets"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriber_trash" ADD CONSTRAINT "subscriber_trash_deleted_by_fkey" FOREIGN KEY ("deleted_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriber_trash" ADD CONSTRAINT "subscriber_trash_bulk_change_id_fkey" FOREIGN KEY ("bulk_change_id") REFERENCES "bulk_changes"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bulk_changes" ADD CONSTRAINT "bulk_changes_undo_of_fkey" FOREIGN KEY ("undo_of") REFERENCES "bulk_changes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bulk_change_rows" ADD CONSTRAINT "bulk_change_rows_bulk_change_id_fkey" FOREIGN KEY ("bulk_change_id") REFERENCES "bulk_changes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand (Prisma's schema language has no expression indexes): branch names are unique
-- regardless of case among branches not in the trash, so a trashed branch's name is free for a
-- new branch; restoring the old one is then a 409 (docs/decisions/0031-trash.md).
DROP INDEX "branches_name_lower_key";
CREATE UNIQUE INDEX "branches_name_lower_key" ON "branches" (lower("name")) WHERE "deleted_at" IS NULL;
