import path from "node:path";
import { config, type Config } from "@/lib/config";
import { processWide } from "@/lib/process-wide";
import { localStore } from "./local";
import { s3Store, type S3Settings } from "./s3";
import type { FileStore } from "./types";

// The one storage module: a local folder (STORAGE_DIR) or, with STORAGE_URL=s3://…, a bucket every machine shares.

export { StorageUnavailableError, type FileStore, type StorageProblem } from "./types";

type StorageTarget = { kind: "local"; dir: string } | ({ kind: "s3" } & S3Settings);

/** Where the settings put the files. */
function storageTarget(c: Config = config()): StorageTarget {
  if (!c.STORAGE_URL) return { kind: "local", dir: path.resolve(/*turbopackIgnore: true*/ c.STORAGE_DIR) };
  return {
    kind: "s3",
    bucket: c.STORAGE_URL.bucket,
    prefix: c.STORAGE_URL.prefix,
    endpoint: c.S3_ENDPOINT,
    region: c.S3_REGION,
    // S3-compatible servers mostly want path-style URLs (http://host/bucket/key); AWS the other.
    forcePathStyle: c.S3_FORCE_PATH_STYLE ?? c.S3_ENDPOINT !== undefined,
  };
}

const made = processWide("storage", () => ({ current: undefined as { key: string; store: FileStore } | undefined }));

/** The process's file store, made once per configuration (tests change it between suites). */
export function storage(): FileStore {
  const target = storageTarget();
  const key = JSON.stringify(target);
  if (made.current?.key !== key) made.current = { key, store: target.kind === "local" ? localStore(target.dir) : s3Store(target) };
  return made.current.store;
}
