-- "Not duplicates": pairs of subscribers marked as distinct people, left out by the duplicate rule
-- (docs/decisions/0032-duplicates-decided-in-one-place.md).
-- CreateTable
CREATE TABLE "subscriber_dismissals" (
    "low_id" INTEGER NOT NULL,
    "high_id" INTEGER NOT NULL,
    "created_by" INTEGER,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "subscriber_dismissals_pkey" PRIMARY KEY ("low_id","high_id")
);

-- CreateIndex
CREATE INDEX "subscriber_dismissals_high_id_low_id_idx" ON "subscriber_dismissals"("high_id", "low_id");
