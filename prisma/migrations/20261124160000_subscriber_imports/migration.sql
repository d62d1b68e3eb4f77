-- CreateEnum
CREATE TYPE "ImportStatus" AS ENUM ('in_queue', 'running', 'completed', 'failed');

-- CreateTable
CREATE TABLE "subscriber_imports" (
    "id" VARCHAR(32) NOT NULL,
    "user_id" INTEGER NOT NULL,
    "status" "ImportStatus" NOT NULL DEFAULT 'in_queue',
    "dry_run" BOOLEAN NOT NULL DEFAULT false,
    "file_name" VARCHAR(255) NOT NULL,
    "source" JSONB NOT NULL,
    "worksheet" VARCHAR(100),
    "sheet_name" VARCHAR(100),
    "headers" JSONB NOT NULL DEFAULT '[]',
    "mapping" JSONB NOT NULL DEFAULT '[]',
    "total_rows" INTEGER NOT NULL DEFAULT 0,
    "processed_rows" INTEGER NOT NULL DEFAULT 0,
    "imported_rows" INTEGER NOT NULL DEFAULT 0,
    "rejected_rows" INTEGER NOT NULL DEFAULT 0,
    "duplicate_rows" INTEGER NOT NULL DEFAULT 0,
    "reasons" JSONB NOT NULL DEFAULT '{}',
    "preview" JSONB NOT NULL DEFAULT '[]',
    "has_rejected" BOOLEAN NOT NULL DEFAULT false,
    "error" TEXT,
    "job_id" VARCHAR(64),
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(6),

    CONSTRAINT "subscriber_imports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "import_rows" (
    "import_id" VARCHAR(32) NOT NULL,
    "line" INTEGER NOT NULL,
    "first_name" VARCHAR(100) NOT NULL,
    "last_name" VARCHAR(100) NOT NULL,
    "email" VARCHAR(254) NOT NULL,
    "mobile" VARCHAR(16) NOT NULL,
    "branch_id" INTEGER,
    "country_id" INTEGER,
    "travel_date" DATE,
    "sheet" VARCHAR(100) NOT NULL,
    "subscription_status" "SubscriptionStatus" NOT NULL,
    "is_mandatory" BOOLEAN NOT NULL,

    CONSTRAINT "import_rows_pkey" PRIMARY KEY ("import_id","line")
);

-- CreateIndex
CREATE INDEX "subscriber_imports_user_id_created_at_idx" ON "subscriber_imports"("user_id", "created_at");

-- AddForeignKey
ALTER TABLE "subscriber_imports" ADD CONSTRAINT "subscriber_imports_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
