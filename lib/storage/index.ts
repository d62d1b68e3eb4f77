import path from "node:path";
import { config } from "@/lib/config";
import { localStore } from "./local";
import type { FileStore } from "./types";

// The one storage module for every file the console keeps (lib/storage/types.ts says what every
// backend promises). Today: a local folder, STORAGE_DIR (`.data` by default).

export { STORAGE_KEY, StorageKeyError, checkKey, type FileStore, type StoreBody, type StoredEntry, type StoredObject } from "./types";

type Holder = { __console_storage?: { key: string; store: FileStore } };

/** The process's file store, made once per configuration (tests change it between suites). */
export function storage(): FileStore {
  const dir = path.resolve(/*turbopackIgnore: true*/ config().STORAGE_DIR);
  const holder = globalThis as Holder;
  if (holder.__console_storage?.key !== dir) holder.__console_storage = { key: dir, store: localStore(dir) };
  return holder.__console_storage.store;
}
