import { PassThrough, Readable, addAbortSignal } from "node:stream";
import type { S3Client } from "@aws-sdk/client-s3";
import { checkKey, StorageUnavailableError, type FileStore, type PutOptions, type StoreBody, type StoredEntry } from "./types";
import { storageProblem } from "./problems";
import { log } from "@/lib/telemetry/log";

// Files in an S3-compatible bucket, so every machine sees the same files (docs/decisions/0012-many-machines.md).
// Uploads are streamed multipart and visible only once complete; storage failures, including a
// silent store (S3_TIMEOUTS), become StorageUnavailableError (503). The SDK loads on first use.

export type S3Settings = {
  bucket: string;
  /** Keys are stored under this prefix (no leading or trailing slash; may be empty). */
  prefix: string;
  /** An S3-compatible server (MinIO, Ceph, R2…); unset means AWS S3 itself. */
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
};

/** The smallest part S3 accepts: what one in-flight part holds in memory. */
const PART_SIZE = 5 * 1024 * 1024;
const QUEUE_SIZE = 2;

export type S3Timeouts = {
  /** A storage that does not accept a connection in this time counts as unreachable. */
  connectMs: number;
  /** A download's answer (its headers, the first byte), over all the SDK's attempts. */
  firstByteMs: number;
  /** The answer to a request without a large body (listing, deleting), per attempt. */
  answerMs: number;
  /** No byte either way for this long on an open request (a stalled transfer): it fails. */
  idleMs: number;
  /** The health check, over all attempts. */
  checkMs: number;
};

/** A stall of seconds means trouble; idle is longer because our client may pause a download and a large upload's completion takes a while. */
export const S3_TIMEOUTS: S3Timeouts = { connectMs: 3_000, firstByteMs: 5_000, answerMs: 5_000, idleMs: 15_000, checkMs: 3_000 };

const sdk = () => import("@aws-sdk/client-s3");

export function s3Store(settings: S3Settings, timeouts: S3Timeouts = S3_TIMEOUTS): FileStore {
  const { bucket, prefix } = settings;
  const full = (key: string) => (prefix ? `${prefix}/${checkKey(key)}` : checkKey(key));
  const own = prefix ? `${prefix}/` : "";
  let made: Promise<S3Client> | undefined;
  const client = () => (made ??= makeClient(settings, timeouts));
  /** For requests with a small body: the answer's headers within `answerMs`, per attempt. */
  const small = { requestTimeout: timeouts.answerMs };

  return {
    kind: "s3",

    async put(key: string, body: StoreBody, options: PutOptions = {}) {
      const Key = full(key);
      const [s3, { Upload }, { AbortMultipartUploadCommand }] = await Promise.all([client(), import("@aws-sdk/lib-storage"), sdk()]);
      let bytes = 0;
      let sourceError: { error: unknown } | undefined;
      async function* counted() {
        try {
          for await (const chunk of body as AsyncIterable<Uint8Array | string>) {
            const data = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
            bytes += data.byteLength;
            yield data;
          }
        } catch (error) {
          sourceError = { error };
          throw error;
        }
      }
      const source = Readable.from(counted(), { objectMode: false });
      if (options.signal) addAbortSignal(options.signal, source);
      const upload = new Upload({
        client: s3,
        params: { Bucket: bucket, Key, Body: source, ContentType: options.contentType ?? "application/octet-stream" },
        partSize: PART_SIZE,
        queueSize: QUEUE_SIZE,
        // Aborted below, where a failure to abort cannot hide the reason the upload failed.
        leavePartsOnError: true,
      });
      try {
        await upload.done();
        return bytes;
      } catch (error) {
        source.destroy();
        if (upload.uploadId) {
          await s3.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key, UploadId: upload.uploadId }), small).catch((abortError: unknown) => {
            // The parts stay until the sweep (or the bucket's lifecycle rule) removes them; nobody sees them.
            log.warn(`storage: could not abort the upload of ${key}: ${describe(abortError)}`);
          });
        }
        if (options.signal?.aborted) throw options.signal.reason ?? error;
        if (sourceError) throw sourceError.error; // the writer's own failure, not the storage's
        throw unavailable(error, `writing ${key}`);
      }
    },

    async get(key: string) {
      const Key = full(key);
      const [s3, { GetObjectCommand }] = await Promise.all([client(), sdk()]);
      // The first byte is bounded, retries included; after that the body streams while it keeps coming (idleMs).
      const firstByte = new AbortController();
      const timer = setTimeout(() => firstByte.abort(), timeouts.firstByteMs);
      try {
        const answer = await s3.send(new GetObjectCommand({ Bucket: bucket, Key }), { ...small, abortSignal: firstByte.signal });
        return { body: readable(answer.Body as Readable, key), size: Number(answer.ContentLength ?? 0) };
      } catch (error) {
        if (isMissing(error)) return null;
        throw unavailable(error, `reading ${key}`);
      } finally {
        clearTimeout(timer);
      }
    },

    async delete(keys: readonly string[]) {
      if (keys.length === 0) return;
      const objects = keys.map((key) => ({ Key: full(key) }));
      const [s3, { DeleteObjectsCommand }] = await Promise.all([client(), sdk()]);
      for (let i = 0; i < objects.length; i += 1000) {
        let answer;
        try {
          answer = await s3.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: objects.slice(i, i + 1000), Quiet: true } }), small);
        } catch (error) {
          throw unavailable(error, "deleting files");
        }
        const failed = (answer.Errors ?? []).filter((e) => e.Code !== "NoSuchKey");
        if (failed.length > 0) throw unavailable(new Error(`${failed[0]!.Code}: ${failed[0]!.Message}`), `deleting ${failed.length} file(s)`);
      }
    },

    async *list(listPrefix: string): AsyncIterable<StoredEntry> {
      const [s3, { paginateListObjectsV2 }] = await Promise.all([client(), sdk()]);
      try {
        for await (const page of paginateListObjectsV2({ client: s3 }, { Bucket: bucket, Prefix: `${own}${listPrefix}` }, small)) {
          for (const object of page.Contents ?? []) {
            if (!object.Key?.startsWith(own)) continue;
            yield { key: object.Key.slice(own.length), size: Number(object.Size ?? 0), modifiedAt: object.LastModified ?? new Date(0) };
          }
        }
      } catch (error) {
        throw unavailable(error, `listing ${listPrefix}`);
      }
    },

    async sweepIncomplete(olderThanMs: number) {
      const [s3, { ListMultipartUploadsCommand, AbortMultipartUploadCommand }] = await Promise.all([client(), sdk()]);
      const cutoff = Date.now() - olderThanMs;
      let removed = 0;
      let KeyMarker: string | undefined;
      let UploadIdMarker: string | undefined;
      try {
        for (;;) {
          const page = await s3.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: own || undefined, KeyMarker, UploadIdMarker }), small);
          for (const upload of page.Uploads ?? []) {
            if (!upload.Key || !upload.UploadId || (upload.Initiated?.getTime() ?? Infinity) > cutoff) continue;
            await s3.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: upload.Key, UploadId: upload.UploadId }), small);
            removed++;
          }
          if (!page.IsTruncated) break;
          KeyMarker = page.NextKeyMarker;
          UploadIdMarker = page.NextUploadIdMarker;
        }
      } catch (error) {
        if ((error as { name?: string }).name === "NotImplemented") {
          log.warn("storage: this S3 server cannot list unfinished uploads; give the bucket a lifecycle rule that aborts them.");
          return removed;
        }
        throw unavailable(error, "sweeping unfinished uploads");
      }
      return removed;
    },

    async check() {
      const [s3, { HeadBucketCommand }] = await Promise.all([client(), sdk()]);
      try {
        await s3.send(new HeadBucketCommand({ Bucket: bucket }), { ...small, abortSignal: AbortSignal.timeout(timeouts.checkMs) });
      } catch (error) {
        throw unavailable(error, "checking the bucket", false);
      }
    },
  };
}

async function makeClient(settings: S3Settings, timeouts: S3Timeouts): Promise<S3Client> {
  const { S3Client } = await sdk();
  return new S3Client({
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.endpoint
      ? {
          endpoint: settings.endpoint,
          // Many S3-compatible servers reject the SDK's newer default checksums.
          requestChecksumCalculation: "WHEN_REQUIRED" as const,
          responseChecksumValidation: "WHEN_REQUIRED" as const,
        }
      : {}),
    // Credentials: the SDK's default chain. `requestTimeout` only warns without throwOnRequestTimeout;
    // `socketTimeout` bounds silence on an open request, which is what bounds multipart parts.
    requestHandler: { connectionTimeout: timeouts.connectMs, socketTimeout: timeouts.idleMs, throwOnRequestTimeout: true },
  });
}

/** A download's body whose mid-transfer failure is a StorageUnavailableError; destroying it stops the download. */
function readable(body: Readable, key: string): Readable {
  const out = new PassThrough();
  body.on("error", (error) => out.destroy(unavailable(error, `reading ${key}`)));
  out.once("close", () => {
    if (!body.readableEnded) body.destroy();
  });
  return body.pipe(out);
}

function isMissing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === "NoSuchKey" || e?.name === "NotFound" || e?.$metadata?.httpStatusCode === 404;
}

function describe(error: unknown): string {
  const e = error as { name?: string; code?: string; message?: string };
  return [e?.name, e?.code, e?.message?.split("\n")[0]].filter(Boolean).join(": ") || String(error);
}

function unavailable(error: unknown, what: string, report = true): StorageUnavailableError {
  if (StorageUnavailableError.is(error)) return error;
  const reason = storageProblem(error);
  if (report) log.warn(`storage unavailable (${reason}) ${what}: ${describe(error)}`);
  return new StorageUnavailableError(reason, error);
}
