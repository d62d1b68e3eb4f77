-- Saved views and each user's default view of a list (docs/decisions/0027-saved-views.md).
-- CreateTable
CREATE TABLE "saved_views" (
    "id" SERIAL NOT NULL,
    "owner_id" INTEGER NOT NULL,
    "resource" VARCHAR(20) NOT NULL,
    "name" VARCHAR(60) NOT NULL,
    "query" VARCHAR(2000) NOT NULL,
    "columns" JSONB,
    "shared" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "saved_views_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "saved_view_defaults" (
    "user_id" INTEGER NOT NULL,
    "resource" VARCHAR(20) NOT NULL,
    "view_id" INTEGER NOT NULL,

    CONSTRAINT "saved_view_defaults_pkey" PRIMARY KEY ("user_id","resource")
);

-- CreateIndex
CREATE INDEX "saved_views_resource_shared_idx" ON "saved_views"("resource", "shared");

-- CreateIndex
CREATE UNIQUE INDEX "saved_views_owner_id_resource_name_key" ON "saved_views"("owner_id", "resource", "name");

-- CreateIndex
CREATE INDEX "saved_view_defaults_view_id_idx" ON "saved_view_defaults"("view_id");

-- AddForeignKey
ALTER TABLE "saved_views" ADD CONSTRAINT "saved_views_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "saved_view_defaults" ADD CONSTRAINT "saved_view_defaults_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "saved_view_defaults" ADD CONSTRAINT "saved_view_defaults_view_id_fkey" FOREIGN KEY ("view_id") REFERENCES "saved_views"("id") ON DELETE CASCADE ON UPDATE CASCADE;
