-- AlterTable
ALTER TABLE "users" ADD COLUMN     "sso_subject" VARCHAR(255);
