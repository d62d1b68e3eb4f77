-- CreateTable
CREATE TABLE "subscriber_status_counts" (
    "subscription_status" "SubscriptionStatus" NOT NULL,
    "is_duplicate" BOOLEAN NOT NULL,
    "is_mandatory" BOOLEAN NOT NULL,
    "total" INTEGER NOT NULL,

    CONSTRAINT "subscriber_status_counts_pkey" PRIMARY KEY ("subscription_status","is_duplicate","is_mandatory")
);

-- Written by hand (Prisma's schema language has no functions or triggers): subscriber_status_counts
-- holds how many subscribers have each status and pair of flags (16 rows at most), kept exact by
-- statement-level triggers in the same transaction as the change, like subscriber_day_counts.
-- The list's total, unfiltered or filtered by status and flags only, is a sum over these rows
-- (~0.3 ms) instead of a count over up to a million index entries (~30-100 ms).
-- \073 stands for a semicolon in the function bodies (see the subscriber_day_counts migration).
CREATE FUNCTION "subscriber_status_counts_change"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''TRUNCATE'' THEN
    DELETE FROM "subscriber_status_counts"\073
  ELSIF TG_OP = ''INSERT'' THEN
    INSERT INTO "subscriber_status_counts" AS c ("subscription_status", "is_duplicate", "is_mandatory", "total")
    SELECT "subscription_status", "is_duplicate", "is_mandatory", count(*) FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT ("subscription_status", "is_duplicate", "is_mandatory") DO UPDATE SET "total" = c."total" + EXCLUDED."total"\073
  ELSIF TG_OP = ''DELETE'' THEN
    UPDATE "subscriber_status_counts" AS c SET "total" = c."total" - d.n
    FROM (SELECT "subscription_status", "is_duplicate", "is_mandatory", count(*) AS n FROM old_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3) d
    WHERE (c."subscription_status", c."is_duplicate", c."is_mandatory") = (d."subscription_status", d."is_duplicate", d."is_mandatory")\073
  ELSE
    -- UPDATE: only rows whose status or flags changed write anything.
    INSERT INTO "subscriber_status_counts" AS c ("subscription_status", "is_duplicate", "is_mandatory", "total")
    SELECT "subscription_status", "is_duplicate", "is_mandatory", sum(n) FROM (
      SELECT "subscription_status", "is_duplicate", "is_mandatory", 1 AS n FROM new_rows
      UNION ALL
      SELECT "subscription_status", "is_duplicate", "is_mandatory", -1 FROM old_rows
    ) moved GROUP BY 1, 2, 3 HAVING sum(n) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT ("subscription_status", "is_duplicate", "is_mandatory") DO UPDATE SET "total" = c."total" + EXCLUDED."total"\073
  END IF\073
  RETURN NULL\073
END';

CREATE TRIGGER "subscribers_status_counts_insert" AFTER INSERT ON "subscribers"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "subscriber_status_counts_change"();
CREATE TRIGGER "subscribers_status_counts_delete" AFTER DELETE ON "subscribers"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "subscriber_status_counts_change"();
CREATE TRIGGER "subscribers_status_counts_update" AFTER UPDATE ON "subscribers"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "subscriber_status_counts_change"();
CREATE TRIGGER "subscribers_status_counts_truncate" AFTER TRUNCATE ON "subscribers"
  FOR EACH STATEMENT EXECUTE FUNCTION "subscriber_status_counts_change"();

-- The subscribers that exist already.
INSERT INTO "subscriber_status_counts" ("subscription_status", "is_duplicate", "is_mandatory", "total")
SELECT "subscription_status", "is_duplicate", "is_mandatory", count(*) FROM "subscribers" GROUP BY 1, 2, 3;
