import type { Readable } from "node:stream";
import { AppError, BrandedError } from "@/lib/errors";
import { RETRY_AFTER_SECONDS } from "@/lib/health/unavailable";
import { problem } from "@/lib/i18n/problem";

// The console's files, under keys the code makes, never user input. Every backend writes from a
// stream and shows an object only once complete, so a reader sees none or a whole one.

/** A key: segments of letters, digits, `_`, `-` and `.` (not starting with a dot), joined by `/`. */
export const STORAGE_KEY = /^(?:[A-Za-z0-9_-][A-Za-z0-9_.-]{0,199}\/){0,4}[A-Za-z0-9_-][A-Za-z0-9_.-]{0,199}$/;

export type StoredObject = {
  /** The object's bytes; destroy it to stop reading early. */
  body: Readable;
  size: number;
};

export type StoredEntry = { key: string; size: number; modifiedAt: Date };

/** What an object is written from: a stream, or chunks as they come. */
export type StoreBody = Readable | AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;

export type PutOptions = { contentType?: string; signal?: AbortSignal };

export interface FileStore {
  /** `local` (a folder) or `s3` (an S3-compatible bucket). */
  readonly kind: string;
  /** Writes `key` from `body`; visible to readers only once whole. Returns the bytes written. */
  put(key: string, body: StoreBody, options?: PutOptions): Promise<number>;
  /** The object under `key`, or null when there is none. */
  get(key: string): Promise<StoredObject | null>;
  /** Removes objects; missing ones are fine (already gone). */
  delete(keys: readonly string[]): Promise<void>;
  /** Complete objects whose key starts with `prefix` (e.g. `exports/`). */
  list(prefix: string): AsyncIterable<StoredEntry>;
  /** Removes writes that were started more than `olderThanMs` ago and never completed (a killed writer's). */
  sweepIncomplete(olderThanMs: number): Promise<number>;
  /** Throws when the storage cannot be reached (the health check). */
  check(): Promise<void>;
}

export class StorageKeyError extends BrandedError {
  static readonly brand: string = "console.StorageKeyError";
}

export function checkKey(key: string): string {
  if (!STORAGE_KEY.test(key)) throw new StorageKeyError(`Not a storage key: ${JSON.stringify(key.slice(0, 80))}`);
  return key;
}

/** Why a storage could not be used: for the health report and the logs, never shown to users. */
export type StorageProblem = "unreachable" | "timeout" | "denied" | "error";

/** The storage cannot be used right now: 503 `storage_unavailable` with Retry-After; nothing cached, so the next request tries again. */
export class StorageUnavailableError extends AppError {
  static readonly brand: string = "console.StorageUnavailableError";

  constructor(
    readonly reason: StorageProblem,
    cause?: unknown,
  ) {
    super(503, "storage_unavailable", problem("storage.unavailable"), undefined, RETRY_AFTER_SECONDS);
    this.name = "StorageUnavailableError";
    this.cause = cause;
  }
}
