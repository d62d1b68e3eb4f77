-- The uploaded file's size in bytes: what a user's previews not yet started hold in storage is
-- counted against IMPORT_PREVIEW_QUOTA_MB.
ALTER TABLE "subscriber_imports" ADD COLUMN "file_size" BIGINT NOT NULL DEFAULT 0;
