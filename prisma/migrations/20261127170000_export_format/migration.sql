-- The file an export writes: the same rows and job, a CSV or an Excel workbook.
CREATE TYPE "ExportFormat" AS ENUM ('csv', 'xlsx');

ALTER TABLE "subscriber_exports" ADD COLUMN "format" "ExportFormat" NOT NULL DEFAULT 'csv';
