-- Indexes of the subscriber list (issue 4): every filter and sort of /subscribers and
-- GET /api/v1/subscribers is served by an index on PostgreSQL at a million rows.
--
--   default order (created_at DESC, id DESC), created_from/_to   subscribers (created_at, id)
--   sort by <column> (asc/desc, id tie-breaker)                  subscribers (<column>, id)
--   sort by branch/country/sheet name                            the name's unique index walked in
--                                                                order (branches_name_lower_key,
--                                                                countries_name_key, sheets_name_key),
--                                                                then subscribers (<fk>, created_at, id)
--   travel_date_from/_to                                         subscribers (travel_date, id)
--   subscription_status / is_duplicate / is_mandatory (together) subscribers (subscription_status,
--                                                                is_duplicate, is_mandatory, created_at, id);
--                                                                alone: (<column>, id) for the count,
--                                                                (created_at, id) for the page
--   branch_name / country_name / sheet (contains)                trigram GIN on the name, then
--                                                                subscribers (<fk>, created_at, id)
--   country filter sorted by last name                           subscribers (country_id, last_name, id)
--   first_name / last_name / email / mobile (contains)           trigram GIN on the column
--   id                                                           the primary key
--   duplicate rule: same mobile                                  subscribers (mobile, id)
--   duplicate rule: same email (lower(email))                    subscribers_email_lower_id_idx (by hand, below)
--
-- The (branch_id), (country_id) and (sheet_id) indexes are replaced by compound ones that start
-- with the same column, so foreign-key lookups (ON DELETE SET NULL) stay indexed.

-- DropIndex
DROP INDEX "subscribers_branch_id_idx";

-- DropIndex
DROP INDEX "subscribers_country_id_idx";

-- DropIndex
DROP INDEX "subscribers_sheet_id_idx";

-- CreateIndex
CREATE INDEX "branches_name_trgm_idx" ON "branches" USING GIN ("name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "countries_name_trgm_idx" ON "countries" USING GIN ("name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "sheets_name_trgm_idx" ON "sheets" USING GIN ("name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "subscribers_created_at_id_idx" ON "subscribers"("created_at", "id");

-- CreateIndex
CREATE INDEX "subscribers_first_name_id_idx" ON "subscribers"("first_name", "id");

-- CreateIndex
CREATE INDEX "subscribers_last_name_id_idx" ON "subscribers"("last_name", "id");

-- CreateIndex
CREATE INDEX "subscribers_email_id_idx" ON "subscribers"("email", "id");

-- CreateIndex
CREATE INDEX "subscribers_mobile_id_idx" ON "subscribers"("mobile", "id");

-- CreateIndex
CREATE INDEX "subscribers_travel_date_id_idx" ON "subscribers"("travel_date", "id");

-- CreateIndex
CREATE INDEX "subscribers_subscription_status_id_idx" ON "subscribers"("subscription_status", "id");

-- CreateIndex
CREATE INDEX "subscribers_is_duplicate_id_idx" ON "subscribers"("is_duplicate", "id");

-- CreateIndex
CREATE INDEX "subscribers_is_mandatory_id_idx" ON "subscribers"("is_mandatory", "id");

-- CreateIndex
CREATE INDEX "subscribers_subscription_status_is_duplicate_is_mandatory_c_idx" ON "subscribers"("subscription_status", "is_duplicate", "is_mandatory", "created_at", "id");

-- CreateIndex
CREATE INDEX "subscribers_branch_id_created_at_id_idx" ON "subscribers"("branch_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "subscribers_country_id_created_at_id_idx" ON "subscribers"("country_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "subscribers_country_id_last_name_id_idx" ON "subscribers"("country_id", "last_name", "id");

-- CreateIndex
CREATE INDEX "subscribers_sheet_id_created_at_id_idx" ON "subscribers"("sheet_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "subscribers_first_name_trgm_idx" ON "subscribers" USING GIN ("first_name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "subscribers_last_name_trgm_idx" ON "subscribers" USING GIN ("last_name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "subscribers_email_trgm_idx" ON "subscribers" USING GIN ("email" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "subscribers_mobile_trgm_idx" ON "subscribers" USING GIN ("mobile" gin_trgm_ops);

-- Written by hand (Prisma's schema language has no expression indexes): the duplicate rule's
-- "same email, ignoring case" is lower(email) = lower(trim(input)).
CREATE INDEX "subscribers_email_lower_id_idx" ON "subscribers" (lower("email"), "id");
