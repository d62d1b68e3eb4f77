-- Each attempt of an import stages its rows under its own number, and only the newest attempt
-- may insert them: an attempt outlived by its retry (a job that expired while still running)
-- can neither mix its staging rows into the retry's nor import the file a second time.
ALTER TABLE "subscriber_imports" ADD COLUMN "attempt" INTEGER NOT NULL DEFAULT 0;

ALTER TABLE "import_rows" ADD COLUMN "attempt" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "import_rows" DROP CONSTRAINT "import_rows_pkey";
ALTER TABLE "import_rows" ADD CONSTRAINT "import_rows_pkey" PRIMARY KEY ("import_id", "attempt", "line");
