// What the scripts and tests do with the engine: apply migrations (as `prisma migrate deploy`),
// diff two schemas (as `prisma migrate diff`), and report a database's status.
import path from "node:path";
import pg from "pg";
import type { DiffTarget, SchemaFilter } from "@prisma/schema-engine-wasm";
import { openPGlite } from "@/lib/db/pglite";
import { withSchemaEngine } from "./engine";
import { defaultPaths, readMigrations, readSchema, type MigrationPaths, type MigrationTarget } from "./paths";

const NO_FILTERS: SchemaFilter = { externalTables: [], externalEnums: [] };

/**
 * Applies the pending migrations of prisma/migrations (what `prisma migrate deploy` does,
 * `_prisma_migrations` included) and returns the names of those it applied; [] when none.
 */
export async function applyMigrations(target: MigrationTarget, paths: MigrationPaths = defaultPaths()): Promise<string[]> {
  const migrationsList = readMigrations(paths);
  const applied = await withSchemaEngine(
    target,
    async (engine) => {
      const { appliedMigrationNames } = await engine.applyMigrations({ migrationsList, filters: NO_FILTERS });
      return appliedMigrationNames;
    },
    paths,
  );
  if (applied.length) await vacuumAnalyze(target);
  return applied;
}

/**
 * A migration that fills a column updates rows: until a vacuum, their pages are not all-visible
 * (index-only scans read the table again) and the planner has no figures for the column. Autovacuum
 * waits for a fifth of a table to change, so the migrations end with one (a migration runs in a
 * transaction, where VACUUM cannot).
 */
async function vacuumAnalyze(target: MigrationTarget): Promise<void> {
  const tables = "SELECT string_agg(quote_ident(tablename), ', ') AS list FROM pg_tables WHERE schemaname = current_schema()";
  if (typeof target !== "string") {
    const { rows } = await target.query<{ list: string | null }>(tables);
    if (rows[0]?.list) await target.exec(`VACUUM (ANALYZE) ${rows[0].list}`);
    return;
  }
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  try {
    const { rows } = await client.query<{ list: string | null }>(tables);
    if (rows[0]?.list) await client.query(`VACUUM (ANALYZE) ${rows[0].list}`);
  } finally {
    await client.end();
  }
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
