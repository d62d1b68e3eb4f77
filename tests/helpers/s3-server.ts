import fs from "node:fs";
import type { Server } from "node:http";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { freePort } from "./pg-cluster";

// A real S3-compatible server over HTTP for the tests (s3rver 3.7.1, in this process, files in a
// folder of the test's own): the console's store talks to it with the real AWS SDK, never a stub.
//
// s3rver answers "NotImplemented" to the two calls that clean up unfinished multipart uploads
// (ListMultipartUploads, AbortMultipartUpload), which every S3 (AWS, MinIO, Ceph, R2) has. They
// are added here as a middleware over s3rver's own folder of unfinished uploads
// (`<bucket>/._S3rver_uploads/<upload id>/{key, 1, 2…}`), so that the sweep of a killed writer's
// upload is tested over HTTP too.

export type S3Server = {
  /** The endpoint to give the SDK (S3_ENDPOINT). */
  endpoint: string;
  port: number;
  bucket: string;
  /** s3rver's folder. */
  dir: string;
  /** Unfinished multipart uploads, as s3rver keeps them: their keys. */
  unfinishedUploads(): string[];
  /** Stops answering (connections refused), keeping the files. */
  stop(): Promise<void>;
  /** Answers again on the same port, with the same files. */
  start(): Promise<void>;
  /** Stops and removes the files. */
  close(): Promise<void>;
};

/** Environment that points the console at this server (credentials: s3rver takes any). */
export function s3Env(server: S3Server, prefix = "console"): Record<string, string> {
  return {
    STORAGE_URL: `s3://${server.bucket}/${prefix}`,
    S3_ENDPOINT: server.endpoint,
    S3_REGION: "us-east-1",
    AWS_ACCESS_KEY_ID: "S3RVER",
    AWS_SECRET_ACCESS_KEY: "S3RVER",
  };
}

export async function startS3Server(options: { bucket?: string; port?: number } = {}): Promise<S3Server> {
  const bucket = options.bucket ?? "console-test";
  const port = options.port ?? (await freePort());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "s3rver-"));
  const uploadsDir = path.join(dir, bucket, "._S3rver_uploads");
  let running: { s3: S3rver; http: Server } | null = null;

  const start = async () => {
    if (running) return;
    const s3 = new S3rver({ port, address: "127.0.0.1", silent: true, directory: dir, configureBuckets: [{ name: bucket, configs: [] }] });
    // Before s3rver's router, the last of its middlewares.
    s3.middleware.splice(s3.middleware.length - 1, 0, multipartCleanup(bucket, uploadsDir));
    await s3.run();
    running = { s3, http: (s3 as unknown as { httpServer: Server }).httpServer };
  };
  const stop = async () => {
    if (!running) return;
    const { http } = running;
    running = null;
    const closed = new Promise<void>((resolve) => http.close(() => resolve()));
    http.closeAllConnections();
    await closed;
  };
  await start();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    bucket,
    dir,
    unfinishedUploads: () => (fs.existsSync(uploadsDir) ? fs.readdirSync(uploadsDir).flatMap((id) => unfinished(uploadsDir, id)?.key ?? []) : []),
    stop,
    start,
    async close() {
      await stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

type Context = {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  status: number;
  type: string;
  body: unknown;
};

/**
 * An unfinished upload's key and start; null while s3rver is still creating its folder (no key
 * file yet) or has just removed it.
 */
function unfinished(uploadsDir: string, id: string): { id: string; key: string; initiated: Date } | null {
  const keyFile = path.join(uploadsDir, id, "key");
  try {
    return { id, key: fs.readFileSync(keyFile, "utf8"), initiated: fs.statSync(keyFile).mtime };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

const xml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

function multipartCleanup(bucket: string, uploadsDir: string) {
  return async (ctx: Context, next: () => Promise<void>) => {
    const [, pathBucket, ...keyParts] = decodeURIComponent(ctx.path).split("/");
    if (pathBucket !== bucket) return next();
    const key = keyParts.join("/");
    if (ctx.method === "GET" && key === "" && "uploads" in ctx.query) {
      const prefix = typeof ctx.query.prefix === "string" ? ctx.query.prefix : "";
      const ids = fs.existsSync(uploadsDir) ? fs.readdirSync(uploadsDir) : [];
      const uploads = ids
        .flatMap((id) => unfinished(uploadsDir, id) ?? [])
        .filter((u) => u.key.startsWith(prefix))
        .sort((a, b) => a.key.localeCompare(b.key) || a.id.localeCompare(b.id));
      ctx.type = "application/xml";
      ctx.body =
        `<?xml version="1.0" encoding="UTF-8"?>\n<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">` +
        `<Bucket>${xml(bucket)}</Bucket><Prefix>${xml(prefix)}</Prefix><MaxUploads>1000</MaxUploads><IsTruncated>false</IsTruncated>` +
        uploads.map((u) => `<Upload><Key>${xml(u.key)}</Key><UploadId>${xml(u.id)}</UploadId><Initiated>${u.initiated.toISOString()}</Initiated></Upload>`).join("") +
        `</ListMultipartUploadsResult>`;
      return;
    }
    const uploadId = ctx.query.uploadId;
    if (ctx.method === "DELETE" && key !== "" && typeof uploadId === "string") {
      const folder = path.join(uploadsDir, path.basename(uploadId));
      if (!fs.existsSync(folder) || fs.readFileSync(path.join(folder, "key"), "utf8") !== key) {
        ctx.status = 404;
        ctx.type = "application/xml";
        ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>`;
        return;
      }
      fs.rmSync(folder, { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    return next();
  };
}
