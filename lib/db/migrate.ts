// Migrations without the native Prisma schema engine (its download is unreachable here): the same
// engine ships as WebAssembly in @prisma/schema-engine-wasm and talks to the database through a
// Prisma driver adapter (PrismaPg for a PostgreSQL server, PrismaPGlite for the embedded one).
//
// The migrations stay in Prisma's own layout (prisma/migrations/<timestamp>_<name>/migration.sql
// + migration_lock.toml) and `_prisma_migrations` is written by the engine itself, so
// `prisma migrate deploy` applies/recognises the same folder wherever the native engine exists.
//
// Used by scripts (tsx) and tests only: no "server-only" here.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from "@prisma/driver-adapter-utils";
import type {
  DiffTarget,
  MigrationList,
  SchemaEngine,
  SchemaFilter,
} from "@prisma/schema-engine-wasm";
import * as glue from "@prisma/schema-engine-wasm/schema_engine_bg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { openPGlite } from "./pglite";

export type { SchemaEngine } from "@prisma/schema-engine-wasm";

/** Where to migrate: an open PGlite (the caller keeps owning it) or a postgres:// URL. */
export type MigrationTarget = PGlite | string;

export type MigrationPaths = {
  /** prisma/schema.prisma */
  schemaPath: string;
  /** prisma/migrations */
  migrationsDir: string;
};

/**
 * The project's root: found from this file (lib/db/migrate.ts) whatever the working directory,
 * else (were this file ever bundled elsewhere) the working directory.
 */
function projectRoot(): string {
  try {
    const root = fileURLToPath(new URL("../../", import.meta.url));
    if (fs.existsSync(path.join(root, "prisma/schema.prisma"))) return root;
  } catch {
    /* not a file: URL */
  }
  return process.cwd();
}

/** The project's prisma/schema.prisma and prisma/migrations. */
export function defaultPaths(root: string = projectRoot()): MigrationPaths {
  return {
    schemaPath: path.resolve(root, "prisma/schema.prisma"),
    migrationsDir: path.resolve(root, "prisma/migrations"),
  };
}

const NO_FILTERS: SchemaFilter = { externalTables: [], externalEnums: [] };

// ---------------------------------------------------------------------------------------------
// Loading the WebAssembly engine
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Adapters and engines
// ---------------------------------------------------------------------------------------------

/**
 * Wraps an adapter factory to remember every connection the engine opens, so that we can close
 * them ourselves: freeing the engine does not dispose them, and an open pg pool keeps the process
 * alive.
 */
class TrackingFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider: "postgres";
  readonly adapterName: string;
  private readonly connections: SqlDriverAdapter[] = [];

  constructor(private readonly inner: SqlMigrationAwareDriverAdapterFactory) {
    this.provider = inner.provider as "postgres";
    this.adapterName = inner.adapterName;
  }

  async connect() {
    return this.track(await this.inner.connect());
  }

  async connectToShadowDb() {
    return this.track(await this.inner.connectToShadowDb());
  }

  private track(connection: SqlDriverAdapter) {
    this.connections.push(connection);
    return connection;
  }

  async disposeAll() {
    for (const connection of this.connections.splice(0)) {
      await connection.dispose().catch(() => {});
    }
  }
}

/**
 * pglite-prisma-adapter 0.7.2's `executeScript` (what the engine runs a migration.sql with) does
 * not await PGlite's `exec`: a failing migration becomes an unhandled rejection that kills the
 * process, and the engine goes on as if the script had succeeded. Run it properly, with the
 * adapter's own error conversion.
 */
function awaitScripts(connection: SqlDriverAdapter, pglite: PGlite): SqlDriverAdapter {
  const onError = (connection as unknown as { onError(error: unknown): never }).onError.bind(connection);
  connection.executeScript = async (script: string) => {
    try {
      await pglite.exec(script);
    } catch (error) {
      onError(error);
    }
  };
  return connection;
}

/**
 * A fresh in-memory PGlite with the same extensions as ours, closed when the engine's connection
 * to it is disposed. Used as the shadow database of PGlite targets (the adapter's own shadow is a
 * bare PGlite that cannot run `CREATE EXTENSION pg_trgm`) and as the scratch database of
 * operations that need none.
 */
async function scratchPGlite(): Promise<SqlDriverAdapter> {
  const pglite = await openPGlite();
  const connection = awaitScripts(await new PrismaPGlite(pglite).connect(), pglite);
  const dispose = connection.dispose.bind(connection);
  connection.dispose = async () => {
    await dispose();
    if (!pglite.closed) await pglite.close();
  };
  return connection;
}

function pgliteFactory(pglite: PGlite): SqlMigrationAwareDriverAdapterFactory {
  const inner = new PrismaPGlite(pglite);
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    connect: async () => awaitScripts(await inner.connect(), pglite),
    connectToShadowDb: scratchPGlite,
  };
}

/** For operations that need no database: a scratch PGlite, opened only if the engine asks. */
const scratchFactory: SqlMigrationAwareDriverAdapterFactory = {
  provider: "postgres",
  adapterName: "@prisma/adapter-pglite (scratch)",
  connect: scratchPGlite,
  connectToShadowDb: scratchPGlite,
};

/**
 * @prisma/adapter-pg 7.10 has no column type for PostgreSQL's internal `"char"` (oid 18), which
 * the engine's describer selects from the catalogs (pg_class.relkind…): describing a live server
 * (a diff from a database) failed with "Column type 'char' could not be deserialized from the
 * database". Report those columns as text (oid 25), which is what a `"char"` value is to us;
 * pglite-prisma-adapter maps it itself. Only touches the adapter's internal `performIO` when it
 * exists, so a newer adapter without it is left alone.
 */
type PerformIO = (query: unknown) => Promise<{ fields: { dataTypeID: number }[] }>;
function charAsText<T extends object>(queryable: T): T {
  const target = queryable as T & { performIO?: PerformIO; startTransaction?: (...args: unknown[]) => Promise<object> };
  const performIO = target.performIO?.bind(target);
  if (performIO) {
    target.performIO = async (query) => {
      const result = await performIO(query);
      for (const field of result.fields) if (field.dataTypeID === 18) field.dataTypeID = 25;
      return result;
    };
  }
  const startTransaction = target.startTransaction?.bind(target);
  if (startTransaction) target.startTransaction = async (...args) => charAsText(await startTransaction(...args));
  return queryable;
}

/**
 * @prisma/adapter-pg 7.10's `executeScript` splits a migration at every `;` and sends the pieces
 * one by one, which breaks any function body (and any `;` inside a string). Send the script
 * whole instead, as `prisma migrate deploy` and PGlite do: PostgreSQL's simple query protocol runs
 * several statements in one call, as one implicit transaction.
 */
function wholeScripts(connection: SqlDriverAdapter): SqlDriverAdapter {
  const client = (connection as unknown as { underlyingDriver(): { query(text: string): Promise<unknown> } }).underlyingDriver();
  const onError = (connection as unknown as { onError(error: unknown): never }).onError.bind(connection);
  connection.executeScript = async (script: string) => {
    try {
      await client.query(script);
    } catch (error) {
      onError(error);
    }
  };
  return connection;
}

function pgFactory(url: string): SqlMigrationAwareDriverAdapterFactory {
  const inner = new PrismaPg({ connectionString: url });
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    connect: async () => wholeScripts(charAsText(await inner.connect())),
    connectToShadowDb: async () => wholeScripts(charAsText(await inner.connectToShadowDb())),
  };
}

function adapterFactoryFor(target: MigrationTarget | null): TrackingFactory {
  if (target === null) return new TrackingFactory(scratchFactory);
  if (typeof target === "string") return new TrackingFactory(pgFactory(target));
  return new TrackingFactory(pgliteFactory(target));
}

function logCallback(message: string) {
  if (process.env.DEBUG) console.error(`[schema-engine] ${message}`);
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

// ---------------------------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------------------------

export function readSchema(paths: MigrationPaths = defaultPaths()): { path: string; content: string } {
  return { path: paths.schemaPath, content: fs.readFileSync(paths.schemaPath, "utf8") };
}

/** prisma/migrations as the engine wants it: every <dir>/migration.sql plus migration_lock.toml. */
export function readMigrations(paths: MigrationPaths = defaultPaths()): MigrationList {
  const baseDir = paths.migrationsDir;
  const lockPath = path.join(baseDir, "migration_lock.toml");
  const entries = fs.existsSync(baseDir) ? fs.readdirSync(baseDir, { withFileTypes: true }) : [];
  const migrationDirectories = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort((a, b) => a.localeCompare(b)) // as the Prisma CLI sorts them
    .map((name) => {
      const file = path.join(baseDir, name, "migration.sql");
      let content: { tag: "ok"; value: string } | { tag: "error"; value: string };
      try {
        content = { tag: "ok", value: fs.readFileSync(file, "utf8") };
      } catch (error) {
        content = { tag: "error", value: (error as Error).message };
      }
      return { path: name, migrationFile: { path: "migration.sql", content } };
    });
  return {
    baseDir,
    lockfile: {
      path: "migration_lock.toml",
      content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, "utf8") : null,
    },
    shadowDbInitScript: "",
    migrationDirectories,
  };
}

/** Names of the migration folders, in the order they apply. */
export function migrationNames(paths: MigrationPaths = defaultPaths()): string[] {
  return readMigrations(paths).migrationDirectories.map((d) => d.path);
}

// ---------------------------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------------------------

/**
 * Applies the pending migrations of prisma/migrations (what `prisma migrate deploy` does,
 * `_prisma_migrations` included) and returns the names of those it applied; [] when none.
 */
export async function applyMigrations(target: MigrationTarget, paths: MigrationPaths = defaultPaths()): Promise<string[]> {
  const migrationsList = readMigrations(paths);
  return withSchemaEngine(
    target,
    async (engine) => {
      const { appliedMigrationNames } = await engine.applyMigrations({ migrationsList, filters: NO_FILTERS });
      return appliedMigrationNames;
    },
    paths,
  );
}

/** A schema source for `diffSql`. */
export type SchemaSource =
  /** No tables at all. */
  | { kind: "empty" }
  /** The Prisma schema file (prisma/schema.prisma unless `path`/`content` say otherwise). */
  | { kind: "schema"; path?: string; content?: string }
  /** What the migrations of prisma/migrations produce on a fresh database. */
  | { kind: "migrations" }
  /** A live database, as it is now. */
  | { kind: "database"; target: MigrationTarget };

/** The engine's comment for a diff with no steps ("-- This is an empty migration."). */
const EMPTY_MIGRATION = /^\s*(--\s*This is an empty migration\.?\s*)?$/i;

/**
 * The SQL of a migration from one schema to another, '' when they agree.
 *
 * `{kind: 'migrations'}` applies the migrations to a fresh in-memory PGlite (with pg_trgm, like
 * every database of ours) and diffs from that live database, as `prisma migrate diff
 * --from-migrations` does with a shadow database. At most one side may be a live database
 * (`migrations` or `database`): the engine is connected to one.
 *
 * Only what Prisma's schema language can express is compared: expression indexes (such as
 * branches_name_lower_key on lower(name)) and extensions (pg_trgm, without the
 * postgresqlExtensions preview feature) created by hand in a migration are invisible to the
 * engine's describer, so they are neither reported as drift nor dropped by generated migrations;
 * no filtering is needed (tests/integration/migrations.test.ts checks this, so an engine upgrade
 * that changes it fails there). Partial indexes are described since schema.prisma enables the
 * partialIndexes preview feature: declare them there (`where: raw(…)`), not by hand.
 */
export async function diffSql(
  from: SchemaSource,
  to: SchemaSource = { kind: "schema" },
  paths: MigrationPaths = defaultPaths(),
): Promise<string> {
  const live = [from, to].filter((s) => s.kind === "migrations" || s.kind === "database");
  if (live.length > 1) throw new Error("diffSql compares at most one live database (migrations or database) with a schema.");
  const source = live[0];
  const migrated = source?.kind === "migrations" ? await openPGlite() : null;
  try {
    if (migrated) await applyMigrations(migrated, paths);
    const target = migrated ?? (source?.kind === "database" ? source.target : null);
    const stdout = await withSchemaEngine(
      target,
      async (engine) => {
        const result = await engine.diff({
          from: diffTarget(from, paths),
          to: diffTarget(to, paths),
          script: true,
          exitCode: null,
          filters: NO_FILTERS,
        });
        return result.stdout ?? "";
      },
      paths,
    );
    return EMPTY_MIGRATION.test(stdout) ? "" : stdout;
  } finally {
    await migrated?.close();
  }
}

function diffTarget(source: SchemaSource, paths: MigrationPaths): DiffTarget {
  switch (source.kind) {
    case "empty":
      return { tag: "empty" };
    case "schema": {
      const file =
        source.content !== undefined
          ? { path: source.path ?? paths.schemaPath, content: source.content }
          : readSchema(source.path ? { ...paths, schemaPath: source.path } : paths);
      return { tag: "schemaDatamodel", files: [file] };
    }
    case "migrations":
    case "database":
      // The live database the engine is connected to through the adapter (for `migrations`, the
      // fresh PGlite the migrations were just applied to). `schemaDatasource` is what `prisma
      // migrate diff --from-config-datasource` sends; this engine refuses the `url` tag ("--from-url
      // and --to-url flags are no longer supported"). The `migrations` tag also works (with our
      // pg_trgm-enabled shadow PGlite) but costs the same.
      return { tag: "schemaDatasource", files: [readSchema(paths)], configDir: path.dirname(paths.schemaPath) };
  }
}

export type MigrationStatus = {
  /** Migration folders in prisma/migrations. */
  local: string[];
  /** Local migrations not applied to the database yet. */
  pending: string[];
  /** Migrations recorded in the database that prisma/migrations does not have. */
  unknown: string[];
  /** Migrations that failed (recorded in `_prisma_migrations` without finished_at). */
  failed: string[];
  /** Applied migrations whose migration.sql changed since (checksum mismatch). */
  edited: string[];
  /** False when the database has no `_prisma_migrations` table (never migrated). */
  hasMigrationsTable: boolean;
};

/** How a database stands against prisma/migrations (what `prisma migrate status` reports). */
export async function migrationStatus(target: MigrationTarget, paths: MigrationPaths = defaultPaths()): Promise<MigrationStatus> {
  const migrationsList = readMigrations(paths);
  const result = await withSchemaEngine(
    target,
    (engine) => engine.diagnoseMigrationHistory({ migrationsList, optInToShadowDatabase: false, filters: NO_FILTERS }),
    paths,
  );
  const history = result.history;
  return {
    local: migrationsList.migrationDirectories.map((d) => d.path),
    pending: history && "unappliedMigrationNames" in history ? history.unappliedMigrationNames : [],
    unknown: history && "unpersistedMigrationNames" in history ? history.unpersistedMigrationNames : [],
    failed: result.failedMigrationNames,
    edited: result.editedMigrationNames,
    hasMigrationsTable: result.hasMigrationsTable,
  };
}
