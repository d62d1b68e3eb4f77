-- CreateEnum
CREATE TYPE "TokenScope" AS ENUM ('read', 'export');

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "last_sign_in_at" TIMESTAMPTZ(6);

-- CreateTable
CREATE TABLE "password_links" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "token_hash" CHAR(64) NOT NULL,
    "created_by" INTEGER,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(6) NOT NULL,
    "used_at" TIMESTAMPTZ(6),

    CONSTRAINT "password_links_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_tokens" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "scope" "TokenScope" NOT NULL,
    "token_hash" CHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(6) NOT NULL,
    "last_used_at" TIMESTAMPTZ(6),
    "revoked_at" TIMESTAMPTZ(6),

    CONSTRAINT "api_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "password_links_token_hash_key" ON "password_links"("token_hash");

-- CreateIndex
CREATE INDEX "password_links_user_id_idx" ON "password_links"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "api_tokens_token_hash_key" ON "api_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "api_tokens_user_id_created_at_idx" ON "api_tokens"("user_id", "created_at");

-- AddForeignKey
ALTER TABLE "password_links" ADD CONSTRAINT "password_links_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand: deactivating a user revokes their API tokens for good, however it is done
-- (the users page, the API, an operator's SQL), as the deactivation trigger of 20261123120000
-- ends their sessions; reactivating the user never brings an old token back.
CREATE FUNCTION "users_deactivation_revokes_tokens"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "api_tokens" SET "revoked_at" = now() WHERE "user_id" = NEW."id" AND "revoked_at" IS NULL;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "users_deactivation_revokes_tokens"
  AFTER UPDATE OF "active" ON "users"
  FOR EACH ROW WHEN (OLD."active" AND NOT NEW."active")
  EXECUTE FUNCTION "users_deactivation_revokes_tokens"();
