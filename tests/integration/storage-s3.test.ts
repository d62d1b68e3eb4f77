import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CreateMultipartUploadCommand, S3Client, UploadPartCommand } from "@aws-sdk/client-s3";
import * as health from "@/app/api/health/route";
import type { Database } from "@/lib/db/client";
import { closeConnection } from "@/lib/db/sql";
import { EXPORT_COLUMNS } from "@/lib/export/csv";
import { exportKey, writeExportFile } from "@/lib/export/files";
import { purgeExports } from "@/lib/export/purge";
import { inspectXlsxObject, sourceKey } from "@/lib/imports/source";
import { newJobId } from "@/lib/jobs/ids";
import { startJobWorker, stopJobWorker } from "@/lib/jobs/worker";
import type { HealthReport } from "@/lib/health/check";
import { storage, StorageUnavailableError } from "@/lib/storage";
import { s3Store, S3_TIMEOUTS, type S3Timeouts } from "@/lib/storage/s3";
import { actAs, createUsers, testDatabase } from "../helpers/db";
import { seedSubscribers } from "../helpers/export-data";
import { download, parseCsv, postExport, waitForStatus } from "../helpers/export-test";
import { startFaultyEndpoint, type FaultyEndpoint } from "../helpers/faulty-endpoint";
import { apiRequest } from "../helpers/http";
import { s3Env, startS3Server, type S3Server } from "../helpers/s3-server";
import { storageContract } from "../helpers/storage-contract";
import { columnValues } from "../helpers/xlsx-read";

// The S3 file store against a real S3-compatible server over HTTP (s3rver, tests/helpers/s3-server.ts)
// with the real AWS SDK: the storage contract every backend passes, streaming multipart uploads
// that stay invisible until complete, the sweep of a killed writer's upload, and an outage: the
// download answers 503 with Retry-After and works again once the server is back, from the same
// process; /api/health reports the storage apart from the database; the export worker writes its
// file to the bucket and the purge deletes it there, with stray files and a killed writer's upload.
// And a storage in trouble (tests/helpers/faulty-endpoint.ts): one that accepts connections and
// never answers makes a download 503 within S3_TIMEOUTS.firstByteMs and the health report say
// "down"; an upload to it fails instead of hanging; a body that stalls or is cut off mid-transfer
// fails as StorageUnavailableError, and an import's copy of it leaves no temporary folder.

let server: S3Server;
const settings = () => ({ bucket: server.bucket, prefix: "contract", endpoint: server.endpoint, region: "us-east-1", forcePathStyle: true });
const saved = { ...process.env };

beforeAll(async () => {
  server = await startS3Server();
  Object.assign(process.env, s3Env(server, "console"));
  delete process.env.STORAGE_DIR;
});
afterAll(async () => {
  for (const name of ["STORAGE_URL", "S3_ENDPOINT", "S3_REGION", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "STORAGE_DIR"]) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  await server?.close();
});

describe("S3 file store (s3rver)", () => {
  storageContract(() => s3Store(settings()));

  it("streams a large object up in parts, shows nothing until the upload completes, then all of it", async () => {
    const store = s3Store(settings());
    const MB = 1024 * 1024;
    const hash = crypto.createHash("sha256");
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    async function* big() {
      for (let i = 0; i < 12; i++) {
        if (i === 11) await gate; // 11 MB sent: two parts are up, the object is not there
        const chunk = Buffer.alloc(MB, i + 65);
        hash.update(chunk);
        yield chunk;
      }
    }
    const writing = store.put("exports/big.csv", big());
    const deadline = Date.now() + 20_000;
    while (!server.unfinishedUploads().includes("contract/exports/big.csv")) {
      if (Date.now() > deadline) throw new Error("no multipart upload started");
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await store.get("exports/big.csv")).toBeNull();
    release();
    expect(await writing).toBe(12 * MB);
    const object = (await store.get("exports/big.csv"))!;
    expect(object.size).toBe(12 * MB);
    const back = crypto.createHash("sha256");
    for await (const chunk of object.body) back.update(chunk as Buffer);
    expect(back.digest("hex")).toBe(hash.digest("hex"));
    expect(server.unfinishedUploads()).not.toContain("contract/exports/big.csv");
  });

  it("aborts the upload of a writer that fails after some parts, and sweeps a killed writer's", async () => {
    const store = s3Store(settings());
    async function* failing() {
      yield Buffer.alloc(11 * 1024 * 1024, 1);
      // Two parts are being sent: the upload exists on the server when the writer fails.
      const deadline = Date.now() + 20_000;
      while (!server.unfinishedUploads().includes("contract/exports/failed.csv") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(server.unfinishedUploads()).toContain("contract/exports/failed.csv");
      throw new Error("the database went away");
    }
    await expect(store.put("exports/failed.csv", failing())).rejects.toThrow("the database went away");
    expect(server.unfinishedUploads()).not.toContain("contract/exports/failed.csv");

    // What a SIGKILLed writer leaves: an upload with a part, never completed nor aborted.
    const s3 = new S3Client({ endpoint: server.endpoint, region: "us-east-1", forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: server.bucket, Key: "contract/exports/killed.csv" }));
    await s3.send(new UploadPartCommand({ Bucket: server.bucket, Key: "contract/exports/killed.csv", UploadId, PartNumber: 1, Body: Buffer.alloc(1024, 2) }));
    const other = s3Store({ ...settings(), prefix: "another-console" });
    expect(await store.sweepIncomplete(3600_000)).toBe(0); // recent: perhaps still being written
    expect(await other.sweepIncomplete(0)).toBe(0); // not its prefix
    expect(server.unfinishedUploads()).toContain("contract/exports/killed.csv");
    expect(await store.sweepIncomplete(0)).toBe(1);
    expect(server.unfinishedUploads()).not.toContain("contract/exports/killed.csv");
    expect(await store.get("exports/killed.csv")).toBeNull();
  });

  it("keeps each prefix's keys apart", async () => {
    const a = s3Store(settings());
    const b = s3Store({ ...settings(), prefix: "another-console" });
    await a.put("exports/mine.csv", ["a"]);
    expect(await b.get("exports/mine.csv")).toBeNull();
    const listed: string[] = [];
    for await (const entry of b.list("exports/")) listed.push(entry.key);
    expect(listed).not.toContain("exports/mine.csv");
  });

  it("streams an Excel export up in parts while its rows are still being read, and holds the workbook whole", async () => {
    const id = newJobId();
    const key = exportKey(id, "xlsx");
    const BATCH = 5000;
    let total = 0;
    let progress = 0;
    const batch = () =>
      Array.from({ length: BATCH }, () => {
        total++;
        // Text that does not compress, so the zip grows past a part (5 MB) after some 100,000 rows.
        return EXPORT_COLUMNS.map((c) => (c === "id" ? String(total) : c === "first_name" ? crypto.randomBytes(45).toString("base64") : null));
      });
    async function* rows() {
      // The rows go on until the upload's first part is up: a writer that held the file until its end would never start one.
      while (!server.unfinishedUploads().includes(`console/${key}`)) {
        if (total >= 600_000) throw new Error("no part went up while the rows were read");
        yield batch();
      }
      expect(await storage().get(key)).toBeNull(); // nothing to see until the upload completes
      yield batch();
    }
    const written = await writeExportFile("xlsx", id, rows(), async (n) => void (progress = n));
    expect(written).toBe(total);
    expect(progress).toBe(total);
    const object = (await storage().get(key))!;
    const { sheets, values } = await columnValues(await buffer(object.body));
    expect(sheets).toEqual(["Subscribers"]);
    expect(values.map(Number)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(server.unfinishedUploads()).not.toContain(`console/${key}`);
  }, 120_000);
});

describe("exports in the bucket", () => {
  let database: Database;
  let users: Awaited<ReturnType<typeof createUsers>>;
  const settingsSaved = { ...process.env };

  beforeAll(async () => {
    Object.assign(process.env, { JOB_POLL_SECONDS: "1", JOB_MAINTENANCE_SECONDS: "1", JOB_RETRY_DELAY_SECONDS: "0", EXPORT_BATCH_SIZE: "97" });
    database = await testDatabase("pglite");
    await seedSubscribers((text) => database.prisma.$executeRawUnsafe(text), 300);
    users = await createUsers(database);
    await startJobWorker();
  });
  afterAll(async () => {
    await stopJobWorker(1);
    await closeConnection();
    await database?.close();
    for (const name of ["JOB_POLL_SECONDS", "JOB_MAINTENANCE_SECONDS", "JOB_RETRY_DELAY_SECONDS", "EXPORT_BATCH_SIZE"]) {
      if (settingsSaved[name] === undefined) delete process.env[name];
      else process.env[name] = settingsSaved[name];
    }
  });

  /** s3rver keeps an object as a file whose time is the object's LastModified. */
  const age = (key: string, hours: number) => {
    const file = path.join(server.dir, server.bucket, `console/${key}._S3rver_object`);
    const then = new Date(Date.now() - hours * 3600_000);
    fs.utimesSync(file, then, then);
  };

  it("is written by the worker to the bucket, downloaded from it, and purged from it with strays and a killed writer's upload", async () => {
    const done = await postExport(users.admin).then(() => waitForStatus(users.admin, (st) => st.downloadable_file_status === "completed"));
    const id = done.downloadable_file!.split("/").at(-2)!;
    const response = await download(users.admin, done.downloadable_file!);
    expect(response.status).toBe(200);
    expect(parseCsv(await response.text())).toHaveLength(301);

    await storage().put("exports/AAAAAAAAAAAAAAAAAAAAAA.csv", ["a stray: no export row"]);
    age("exports/AAAAAAAAAAAAAAAAAAAAAA.csv", 2);
    const s3 = new S3Client({ endpoint: server.endpoint, region: "us-east-1", forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: server.bucket, Key: "console/exports/BBBBBBBBBBBBBBBBBBBBBB.csv" }));
    const uploadKeyFile = path.join(server.dir, server.bucket, "._S3rver_uploads", UploadId!, "key");
    const old = new Date(Date.now() - 2 * 3600_000);
    fs.utimesSync(uploadKeyFile, old, old);
    await database.prisma.$executeRawUnsafe(
      `UPDATE subscriber_exports SET created_at = now() - interval '30 days', completed_at = now() - interval '30 days', downloaded_at = NULL WHERE id = $1`, id);

    expect(await purgeExports()).toMatchObject({ purged: 1, strays: 2 });
    expect(await storage().get(exportKey(id))).toBeNull();
    expect(await storage().get("exports/AAAAAAAAAAAAAAAAAAAAAA.csv")).toBeNull();
    expect(server.unfinishedUploads()).not.toContain("console/exports/BBBBBBBBBBBBBBBBBBBBBB.csv");
    expect((await download(users.admin, done.downloadable_file!)).status).toBe(404);
  });
});

describe("the S3 store while its server is down", () => {
  let database: Database;
  let staff: Awaited<ReturnType<typeof createUsers>>["staff"];
  const id = "s3-outage-export-00001";

  beforeAll(async () => {
    database = await testDatabase("pglite");
    ({ staff } = await createUsers(database));
    await database.prisma.$executeRawUnsafe(
      `INSERT INTO subscriber_exports (id, user_id, status, filters, fresh, total_rows, processed_rows, created_at, completed_at)
       VALUES ($1, $2, 'completed', '{}'::jsonb, true, 1, 1, now(), now())`,
      id,
      staff.id,
    );
    await storage().put(exportKey(id), ["id\r\n1\r\n"]);
  });
  afterAll(async () => {
    await server.start().catch(() => {});
    await database?.close();
  });

  const monitor = async () => {
    process.env.HEALTH_TOKEN = "s3-health-token-0123456789abcdef0123456789";
    try {
      const response = await health.GET(apiRequest("/api/health", { headers: { authorization: `Bearer ${process.env.HEALTH_TOKEN}` } }));
      return { status: response.status, body: (await response.json()) as HealthReport };
    } finally {
      delete process.env.HEALTH_TOKEN;
    }
  };

  it("answers downloads 503 with Retry-After, reports the storage down, and recovers by itself", async () => {
    const path = `/api/v1/exports/${id}/download`;
    expect((await download(staff, path)).status).toBe(200);
    expect((await monitor()).body).toMatchObject({ status: "ok", storage: { status: "up", kind: "s3", latency_ms: expect.any(Number) } });

    await server.stop();
    const refused = await download(staff, path);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(await refused.json()).toEqual({ error: { code: "storage_unavailable", message: expect.stringMatching(/file storage cannot be reached/) } });
    await expect(storage().get(exportKey(id))).rejects.toBeInstanceOf(StorageUnavailableError);
    const down = await monitor();
    expect(down.status).toBe(200); // the database answers: the instance still serves everything else
    expect(down.body).toMatchObject({ status: "degraded", database: { status: "up" }, storage: { status: "down", kind: "s3", reason: "unreachable" } });
    actAs(null);
    const anonymous = await health.GET(apiRequest("/api/health"));
    expect(await anonymous.json()).toEqual({ status: "ok" }); // strangers learn up or down, nothing of the storage

    await server.start();
    const back = await download(staff, path);
    expect(back.status).toBe(200);
    expect(await back.text()).toBe("id\r\n1\r\n");
    expect((await monitor()).body).toMatchObject({ status: "ok", storage: { status: "up" } });
  });
});

describe("a storage that accepts connections and does not answer, or stops mid-transfer", () => {
  let database: Database;
  let staff: Awaited<ReturnType<typeof createUsers>>["staff"];
  let silent: FaultyEndpoint;
  let relay: FaultyEndpoint;
  const id = "s3-silent-export-00001";
  const realEndpoint = () => server.endpoint;
  /** Short enough for a test; the defaults (S3_TIMEOUTS) are what the console runs with. */
  const quick: S3Timeouts = { connectMs: 1_000, firstByteMs: 1_000, answerMs: 1_000, idleMs: 1_000, checkMs: 1_000 };
  const MB = 1024 * 1024;

  beforeAll(async () => {
    database = await testDatabase("pglite");
    ({ staff } = await createUsers(database));
    await database.prisma.$executeRawUnsafe(
      `INSERT INTO subscriber_exports (id, user_id, status, filters, fresh, total_rows, processed_rows, created_at, completed_at)
       VALUES ($1, $2, 'completed', '{}'::jsonb, true, 1, 1, now(), now())`,
      id,
      staff.id,
    );
    await storage().put(exportKey(id), ["id\r\n1\r\n"]);
    silent = await startFaultyEndpoint();
    relay = await startFaultyEndpoint(server.port);
  });
  afterAll(async () => {
    process.env.S3_ENDPOINT = realEndpoint();
    await silent?.close();
    await relay?.close();
    await database?.close();
  });

  const monitor = async () => {
    process.env.HEALTH_TOKEN = "s3-health-token-0123456789abcdef0123456789";
    try {
      const response = await health.GET(apiRequest("/api/health", { headers: { authorization: `Bearer ${process.env.HEALTH_TOKEN}` } }));
      return { status: response.status, body: (await response.json()) as HealthReport };
    } finally {
      delete process.env.HEALTH_TOKEN;
    }
  };
  const timed = async <T,>(work: () => Promise<T>) => {
    const started = performance.now();
    const value = await work();
    return { value, ms: performance.now() - started };
  };

  it("answers a download 503 with Retry-After within the first-byte bound, and the health report says the storage is down", async () => {
    const file = `/api/v1/exports/${id}/download`;
    process.env.S3_ENDPOINT = silent.endpoint;
    try {
      const { value: refused, ms } = await timed(() => download(staff, file));
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("5");
      expect(await refused.json()).toMatchObject({ error: { code: "storage_unavailable" } });
      expect(silent.accepted()).toBeGreaterThan(0); // it did connect: the server is silent, not refusing
      expect(ms).toBeLessThan(S3_TIMEOUTS.firstByteMs + 2_000); // not the SDK's 3 attempts, nor forever
      const { value: down, ms: checked } = await timed(monitor);
      expect(down.body).toMatchObject({ status: "degraded", database: { status: "up" }, storage: { status: "down", kind: "s3", reason: "timeout" } });
      expect(checked).toBeLessThan(S3_TIMEOUTS.checkMs + 2_000);
    } finally {
      process.env.S3_ENDPOINT = realEndpoint();
    }
    const back = await download(staff, file);
    expect(back.status).toBe(200);
    expect(await back.text()).toBe("id\r\n1\r\n");
  }, 30_000);

  it("fails an upload to a silent storage within its attempts' idle time, and a body that stalls or is cut off mid-transfer", async () => {
    const store = s3Store({ ...settings(), endpoint: relay.endpoint }, quick);
    relay.set({ kind: "none" });
    const big = Buffer.alloc(2 * MB, 7);
    await store.put("exports/stalled.csv", [big]);

    // The answer's headers and the first 64 kB come, then nothing: the read fails after idleMs.
    relay.set({ kind: "stall", afterBytes: 64 * 1024 });
    const stalled = (await store.get("exports/stalled.csv"))!;
    expect(stalled.size).toBe(2 * MB);
    const { value: stallError, ms } = await timed(() => drain(stalled.body).then(() => null, (error: unknown) => error));
    expect(stallError).toBeInstanceOf(StorageUnavailableError);
    expect(stallError).toMatchObject({ reason: "timeout" });
    expect(ms).toBeLessThan(quick.idleMs + 2_000);

    // The connection drops after 64 kB of the answer.
    relay.set({ kind: "cut", afterBytes: 64 * 1024 });
    const cut = (await store.get("exports/stalled.csv"))!;
    await expect(drain(cut.body)).rejects.toBeInstanceOf(StorageUnavailableError);

    // Silent: the upload fails (each of the SDK's attempts after idleMs) instead of hanging.
    relay.set({ kind: "silent" });
    const { value: putError, ms: putMs } = await timed(() => store.put("exports/never.csv", [Buffer.alloc(MB, 1)]).then(() => null, (error: unknown) => error));
    expect(putError).toBeInstanceOf(StorageUnavailableError);
    expect(putMs).toBeLessThan(3 * quick.idleMs + 3_000);
    const { value: getError, ms: getMs } = await timed(() => store.get("exports/stalled.csv").then(() => null, (error: unknown) => error));
    expect(getError).toMatchObject({ reason: "timeout" });
    expect(getMs).toBeLessThan(quick.firstByteMs + 1_000);

    relay.set({ kind: "none" });
    expect(await store.get("exports/never.csv")).toBeNull(); // nothing half-written is visible
    await store.delete(["exports/stalled.csv"]);
  }, 30_000);

  it("leaves no temporary folder when an import's copy from storage fails mid-way", async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "s3-import-tmp-"));
    const saved = process.env.TMPDIR;
    process.env.S3_ENDPOINT = relay.endpoint;
    try {
      relay.set({ kind: "none" });
      const importId = "s3-import-cut-00000001";
      await storage().put(sourceKey(importId), [Buffer.alloc(2 * MB, 3)]);
      relay.set({ kind: "cut", afterBytes: 256 * 1024 });
      process.env.TMPDIR = tmp; // where os.tmpdir() puts the copy
      await expect(inspectXlsxObject(sourceKey(importId))).rejects.toBeInstanceOf(StorageUnavailableError);
      expect(fs.readdirSync(tmp)).toEqual([]);
      relay.set({ kind: "none" });
      await storage().delete([sourceKey(importId)]);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
      process.env.S3_ENDPOINT = realEndpoint();
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});

async function drain(body: NodeJS.ReadableStream) {
  for await (const chunk of body) void chunk;
}
