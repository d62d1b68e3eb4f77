-- AlterTable
ALTER TABLE "subscriber_exports" ADD COLUMN     "sort" VARCHAR(40),
ADD COLUMN     "subscriber_ids" int4multirange;
