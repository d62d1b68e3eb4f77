// The WebAssembly schema engine (@prisma/schema-engine-wasm) loaded on Node 20 and run against a
// target: one engine per operation, freed with every connection it opened.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import type { SchemaEngine } from "@prisma/schema-engine-wasm";
import * as glue from "@prisma/schema-engine-wasm/schema_engine_bg";
import { toolEnv } from "../env";
import { adapterFactoryFor } from "./adapters";
import { defaultPaths, readSchema, type MigrationPaths, type MigrationTarget } from "./paths";

export type { SchemaEngine } from "@prisma/schema-engine-wasm";

type Glue = typeof glue;
export type LoadedSchemaEngine = {
  SchemaEngine: Glue["SchemaEngine"];
  /** The engine's build (a prisma-engines commit). */
  version: string;
  /** Timers the engine started and that have not fired yet (see `instantiate`). */
  timers: Set<ReturnType<typeof setTimeout>>;
  /** Engines of this instance in use by `withSchemaEngine`. */
  active: number;
};

// The wasm-bindgen glue keeps the instance in a module-level variable: instantiate it once per
// glue module. The cache is keyed by the glue module itself and kept on globalThis, so that a
// second copy of this file (test runners re-evaluate sources per file, Next may bundle twice)
// neither re-instantiates under engines that are still alive nor trusts a stale instance.
type Holder = { __schemaEngineWasm?: WeakMap<object, Promise<LoadedSchemaEngine>> };

/**
 * Instantiates @prisma/schema-engine-wasm on Node 20 without `--experimental-wasm-modules`:
 * this does by hand what the package's schema_engine.js does with a wasm ESM import
 * (instantiate schema_engine_bg.wasm against the glue's exports, `__wbg_set_wasm`,
 * `__wbindgen_start`).
 */
export function loadSchemaEngine(): Promise<LoadedSchemaEngine> {
  const holder = globalThis as Holder;
  const cache = (holder.__schemaEngineWasm ??= new WeakMap());
  let loaded = cache.get(glue);
  if (!loaded) {
    loaded = instantiate();
    cache.set(glue, loaded);
    loaded.catch(() => cache.delete(glue));
  }
  return loaded;
}

async function instantiate(): Promise<LoadedSchemaEngine> {
  const require = createRequire(import.meta.url);
  const gluePath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const bytes = await fs.promises.readFile(path.join(path.dirname(gluePath), "schema_engine_bg.wasm"));
  const timers: LoadedSchemaEngine["timers"] = new Set();
  // The wasm module imports every function from "./schema_engine_bg.js" (the glue), by name.
  const imports: Record<string, unknown> = { ...glue };
  for (const name of Object.keys(glue)) {
    // The engine races its PostgreSQL advisory lock against a 10 s setTimeout that it never
    // clears (the glue imports no clearTimeout), which kept every process alive 10 s after
    // migrating. Track those timers; withSchemaEngine clears them once no engine is in use.
    if (name.startsWith("__wbg_setTimeout_")) {
      imports[name] = (callback: () => void, ms: number) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          callback();
        }, ms >>> 0);
        timers.add(timer);
        return timer;
      };
    }
  }
  const { instance } = await WebAssembly.instantiate(bytes, {
    "./schema_engine_bg.js": imports as WebAssembly.ModuleImports,
  });
  const exports = instance.exports as { __wbindgen_start?: () => void };
  glue.__wbg_set_wasm(exports);
  exports.__wbindgen_start?.(); // wasm-bindgen's start function: sets up the externref table
  return { SchemaEngine: glue.SchemaEngine, version: glue.version(), timers, active: 0 };
}

function logCallback(message: string) {
  if (toolEnv(["DEBUG"]).DEBUG !== undefined) console.error(`[schema-engine] ${message}`);
}

/**
 * Runs `fn` with a schema engine connected to `target` (null: operations that need no database,
 * such as a diff between two Prisma schemas), then frees the engine and closes every connection it
 * opened. A PGlite passed in is left open: it belongs to the caller.
 */
export async function withSchemaEngine<T>(
  target: MigrationTarget | null,
  fn: (engine: SchemaEngine) => Promise<T>,
  paths: MigrationPaths = defaultPaths(),
): Promise<T> {
  const loaded = await loadSchemaEngine();
  const { SchemaEngine } = loaded;
  const factory = adapterFactoryFor(target);
  let engine: SchemaEngine | null = null;
  loaded.active++;
  try {
    const schema = readSchema(paths);
    engine = await SchemaEngine.new(
      { datamodels: [[schema.path, schema.content]] },
      logCallback,
      bindMigrationAwareSqlAdapterFactory(factory),
    );
    return await fn(engine);
  } catch (error) {
    throw engineError(error);
  } finally {
    engine?.free();
    await factory.disposeAll();
    if (--loaded.active === 0) {
      for (const timer of loaded.timers) clearTimeout(timer);
      loaded.timers.clear();
    }
  }
}

/**
 * The engine's errors are several lines long and end with a Rust span trace
 * ("   0: sql_schema_connector::…"): make them one readable line (the original stays on `cause`,
 * printed with DEBUG), e.g. "Migration 20260101000000_x failed: No such table: nowhere".
 */
export class SchemaEngineError extends Error {
  override name = "SchemaEngineError";
}

function engineError(error: unknown): unknown {
  if (error instanceof SchemaEngineError) return error;
  const raw =
    error instanceof Error
      ? error.message
      : error && typeof error === "object" && typeof (error as { message?: unknown }).message === "string"
        ? (error as { message: string }).message
        : typeof error === "string"
          ? error
          : JSON.stringify(error);
  if (error instanceof Error && !raw.includes("\n")) return error;
  const [text = raw, trace = ""] = raw.split(/\n\s*0: \w+::/);
  const lines = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && line !== "external connector error");
  const migration = /migration_name="([^"]+)"/.exec(trace)?.[1];
  const message = (migration ? `Migration ${migration} failed: ` : "") + (lines.join(" ") || raw.trim());
  return new SchemaEngineError(message, { cause: error });
}

