// Where the migrations and the schema are, and how the engine wants them read.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import type { MigrationList } from "@prisma/schema-engine-wasm";

/** Where to migrate: an open PGlite (the caller keeps owning it) or a postgres:// URL. */
export type MigrationTarget = PGlite | string;

/** The migration target of an opened database: its PGlite, or its server's URL. */
export function migrationTargetOf(database: { pglite: PGlite | null; target: { kind: "postgres"; url: string } | { kind: "pglite" } }): MigrationTarget {
  if (database.target.kind === "postgres") return database.target.url;
  if (!database.pglite) throw new Error("An embedded database must be open to be migrated.");
  return database.pglite;
}

export type MigrationPaths = {
  /** prisma/schema.prisma */
  schemaPath: string;
  /** prisma/migrations */
  migrationsDir: string;
};

/**
 * The project's root: found from this file (tools/migrate/paths.ts) whatever the working directory,
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

