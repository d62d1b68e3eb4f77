-- Merges of duplicates, kept for their undo (docs/decisions/0032-duplicates-decided-in-one-place.md).
-- CreateTable
CREATE TABLE "subscriber_merges" (
    "id" VARCHAR(32) NOT NULL,
    "survivor_id" INTEGER NOT NULL,
    "merged_ids" INTEGER[],
    "before" JSONB NOT NULL,
    "values" JSONB NOT NULL,
    "survivor_version" TIMESTAMPTZ(6) NOT NULL,
    "created_by" INTEGER,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "undone_at" TIMESTAMPTZ(6),
    "undone_by" INTEGER,

    CONSTRAINT "subscriber_merges_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "subscriber_merges_survivor_id_created_at_idx" ON "subscriber_merges"("survivor_id", "created_at");
