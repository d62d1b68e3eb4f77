-- AlterTable
ALTER TABLE "users" ADD COLUMN     "branch_scoped" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "user_branches" (
    "user_id" INTEGER NOT NULL,
    "branch_id" INTEGER NOT NULL,

    CONSTRAINT "user_branches_pkey" PRIMARY KEY ("user_id","branch_id")
);

-- CreateTable
CREATE TABLE "subscriber_branch_counts" (
    "branch_id" INTEGER NOT NULL,
    "subscription_status" "SubscriptionStatus" NOT NULL,
    "is_duplicate" BOOLEAN NOT NULL,
    "is_mandatory" BOOLEAN NOT NULL,
    "total" INTEGER NOT NULL,

    CONSTRAINT "subscriber_branch_counts_pkey" PRIMARY KEY ("branch_id","subscription_status","is_duplicate","is_mandatory")
);

-- CreateIndex
CREATE INDEX "user_branches_branch_id_idx" ON "user_branches"("branch_id");

-- CreateIndex
CREATE INDEX "subscribers_branch_id_country_id_last_name_id_idx" ON "subscribers"("branch_id", "country_id", "last_name", "id");

-- AddForeignKey
ALTER TABLE "user_branches" ADD CONSTRAINT "user_branches_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_branches" ADD CONSTRAINT "user_branches_branch_id_fkey" FOREIGN KEY ("branch_id") REFERENCES "branches"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand (Prisma's schema language has no functions or triggers): subscriber_branch_counts
-- is subscriber_status_counts per branch (subscribers without a branch are left out: only unscoped
-- users see them, and they read subscriber_status_counts). A scoped user's total, unfiltered or
-- filtered by status and flags only, is a sum over their branches' rows instead of a count over
-- their subscribers (docs/decisions/0028-branch-scope.md). No foreign key to branches: deleting a
-- branch sets its subscribers' branch_id to NULL, which this trigger counts after the branch is gone.
-- \073 stands for a semicolon in the function bodies (see the subscriber_day_counts migration).
CREATE FUNCTION "subscriber_branch_counts_change"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''TRUNCATE'' THEN
    DELETE FROM "subscriber_branch_counts"\073
  ELSIF TG_OP = ''INSERT'' THEN
    INSERT INTO "subscriber_branch_counts" AS c ("branch_id", "subscription_status", "is_duplicate", "is_mandatory", "total")
    SELECT "branch_id", "subscription_status", "is_duplicate", "is_mandatory", count(*) FROM new_rows
     WHERE "branch_id" IS NOT NULL GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT ("branch_id", "subscription_status", "is_duplicate", "is_mandatory") DO UPDATE SET "total" = c."total" + EXCLUDED."total"\073
  ELSIF TG_OP = ''DELETE'' THEN
    UPDATE "subscriber_branch_counts" AS c SET "total" = c."total" - d.n
    FROM (SELECT "branch_id", "subscription_status", "is_duplicate", "is_mandatory", count(*) AS n FROM old_rows
           WHERE "branch_id" IS NOT NULL GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4) d
    WHERE (c."branch_id", c."subscription_status", c."is_duplicate", c."is_mandatory") = (d."branch_id", d."subscription_status", d."is_duplicate", d."is_mandatory")\073
  ELSE
    -- UPDATE: only rows whose branch, status or flags changed write anything.
    INSERT INTO "subscriber_branch_counts" AS c ("branch_id", "subscription_status", "is_duplicate", "is_mandatory", "total")
    SELECT "branch_id", "subscription_status", "is_duplicate", "is_mandatory", sum(n) FROM (
      SELECT "branch_id", "subscription_status", "is_duplicate", "is_mandatory", 1 AS n FROM new_rows WHERE "branch_id" IS NOT NULL
      UNION ALL
      SELECT "branch_id", "subscription_status", "is_duplicate", "is_mandatory", -1 FROM old_rows WHERE "branch_id" IS NOT NULL
    ) moved GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0 ORDER BY 1, 2, 3, 4
    ON CONFLICT ("branch_id", "subscription_status", "is_duplicate", "is_mandatory") DO UPDATE SET "total" = c."total" + EXCLUDED."total"\073
  END IF\073
  RETURN NULL\073
END';

CREATE TRIGGER "subscribers_branch_counts_insert" AFTER INSERT ON "subscribers"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "subscriber_branch_counts_change"();
CREATE TRIGGER "subscribers_branch_counts_delete" AFTER DELETE ON "subscribers"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "subscriber_branch_counts_change"();
CREATE TRIGGER "subscribers_branch_counts_update" AFTER UPDATE ON "subscribers"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "subscriber_branch_counts_change"();
CREATE TRIGGER "subscribers_branch_counts_truncate" AFTER TRUNCATE ON "subscribers"
  FOR EACH STATEMENT EXECUTE FUNCTION "subscriber_branch_counts_change"();

-- The subscribers that exist already.
INSERT INTO "subscriber_branch_counts" ("branch_id", "subscription_status", "is_duplicate", "is_mandatory", "total")
SELECT "branch_id", "subscription_status", "is_duplicate", "is_mandatory", count(*) FROM "subscribers"
 WHERE "branch_id" IS NOT NULL GROUP BY 1, 2, 3, 4;
