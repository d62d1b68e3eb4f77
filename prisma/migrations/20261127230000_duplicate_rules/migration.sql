-- Which rule flags a duplicate: is_duplicate is their OR. The duplicates review finds its groups
-- from these instead of searching every subscriber for an earlier match of each flagged one
-- (docs/decisions/0032-duplicates-decided-in-one-place.md). Adding the columns rewrites nothing;
-- only the flagged rows are decided, by the rule of lib/subscribers/duplicates.ts.
-- AlterTable
ALTER TABLE "subscribers" ADD COLUMN     "duplicate_by_email" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "duplicate_by_mobile" BOOLEAN NOT NULL DEFAULT false;

UPDATE "subscribers" t SET
  "duplicate_by_email" = EXISTS (SELECT 1 FROM "subscribers" e WHERE lower(e."email") = lower(t."email") AND e."id" < t."id"
    AND NOT EXISTS (SELECT 1 FROM "subscriber_dismissals" d WHERE d."low_id" = e."id" AND d."high_id" = t."id")),
  "duplicate_by_mobile" = EXISTS (SELECT 1 FROM "subscribers" e WHERE e."mobile" = t."mobile" AND e."id" < t."id"
    AND NOT EXISTS (SELECT 1 FROM "subscriber_dismissals" d WHERE d."low_id" = e."id" AND d."high_id" = t."id"))
WHERE t."is_duplicate";
