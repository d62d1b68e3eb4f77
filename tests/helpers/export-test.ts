import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { GET as exportGET, POST as exportPOST } from "@/app/api/v1/subscribers/export/route";
import { GET as downloadGET } from "@/app/api/v1/exports/[id]/download/route";
import type { SessionUser } from "@/lib/auth/permissions";
import type { Database } from "@/lib/db/client";
import { closeConnection } from "@/lib/db/sql";
import type { ExportStatusBody } from "@/lib/export/status";
import { stopJobWorker } from "@/lib/jobs/worker";
import { actAs, createUsers, testDatabase, type TestDbKind } from "./db";
import { seedSubscribers } from "./export-data";
import { apiRequest } from "./http";
import { s3Env, startS3Server, type S3Server } from "./s3-server";

/** Where a suite's files go: a folder of its own, or a bucket (s3rver over HTTP, the real AWS SDK). */
export type FilesKind = "local" | "s3";

/** Both storage backends, for suites that run on each (`for (const files of FILES_KINDS)`). */
export const FILES_KINDS: readonly FilesKind[] = ["local", "s3"];

const STORAGE_VARIABLES = ["STORAGE_DIR", "STORAGE_URL", "S3_ENDPOINT", "S3_REGION", "S3_FORCE_PATH_STYLE", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"];

/**
 * Fast settings for tests: the worker polls every second; files go to a folder of the test's own,
 * or to `bucket` (under the prefix `console`).
 */
export function exportTestEnv(bucket?: S3Server): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "export-test-"));
  for (const name of STORAGE_VARIABLES) delete process.env[name];
  Object.assign(process.env, {
    ...(bucket ? s3Env(bucket, "console") : { STORAGE_DIR: path.join(dir, "files") }),
    JOB_POLL_SECONDS: "1",
    JOB_MAINTENANCE_SECONDS: "1",
    JOB_RETRY_DELAY_SECONDS: "0",
    EXPORT_BATCH_SIZE: "97",
  });
  return dir;
}

export type ExportSuite = { database: Database; staff: SessionUser; admin: SessionUser; dir: string; bucket?: S3Server };

export async function openExportSuite(kind: TestDbKind, subscribers: number, files: FilesKind = "local"): Promise<ExportSuite> {
  const bucket = files === "s3" ? await startS3Server() : undefined;
  const dir = exportTestEnv(bucket);
  const database = await testDatabase(kind);
  await seedSubscribers((text) => database.prisma.$executeRawUnsafe(text), subscribers);
  const { staff, admin } = await createUsers(database);
  return { database, staff, admin, dir, bucket };
}

export async function closeExportSuite(suite: ExportSuite | undefined) {
  await stopJobWorker(1);
  await closeConnection();
  await suite?.database.close();
  if (suite) fs.rmSync(suite.dir, { recursive: true, force: true });
  if (suite?.bucket) {
    await suite.bucket.close();
    for (const name of STORAGE_VARIABLES) delete process.env[name];
  }
}

export async function postExport(user: SessionUser, filters?: Record<string, string>) {
  actAs(user);
  const response = await exportPOST(apiRequest("/api/v1/subscribers/export", { method: "POST", ...(filters ? { json: filters } : {}) }), {});
  return { status: response.status, body: (await response.json()) as ExportStatusBody & { error?: { code: string } } };
}

export async function getStatus(user: SessionUser): Promise<ExportStatusBody> {
  actAs(user);
  return (await (await exportGET(apiRequest("/api/v1/subscribers/export"), {})).json()) as ExportStatusBody;
}

export async function waitForStatus(user: SessionUser, done: (s: ExportStatusBody) => boolean, timeoutMs = 45_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const status = await getStatus(user);
    if (done(status)) return status;
    if (Date.now() > end) throw new Error(`export status still ${JSON.stringify(status)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function download(user: SessionUser | null, file: string) {
  actAs(user);
  const id = file.split("/").at(-2)!;
  return downloadGET(apiRequest(file), { params: Promise.resolve({ id }) });
}

/** A strict parse (RFC 4180 quoting, same column count on every line, BOM removed). */
export function parseCsv(text: string): string[][] {
  return parse(text, { bom: true, relax_quotes: false, relax_column_count: false, record_delimiter: "\r\n" }) as string[][];
}
