// Migrations without the native Prisma schema engine (its download is unreachable here): the same
// engine ships as WebAssembly in @prisma/schema-engine-wasm and talks to the database through a
// Prisma driver adapter (PrismaPg for a PostgreSQL server, PrismaPGlite for the embedded one).
//
// The migrations stay in Prisma's own layout (prisma/migrations/<timestamp>_<name>/migration.sql
// + migration_lock.toml) and `_prisma_migrations` is written by the engine itself, so
// `prisma migrate deploy` applies/recognises the same folder wherever the native engine exists.
//
// A tool (scripts and tests), never imported by the app:
// - paths.ts: where the schema and the migrations are, read as the engine wants them;
// - engine.ts: loading the WebAssembly engine and running one against a target;
// - adapters.ts: the driver adapters and the fixes they need;
// - operations.ts: apply, diff, status.
export { defaultPaths, migrationNames, migrationTargetOf, type MigrationTarget } from "./paths";
export { applyMigrations, diffSql, migrationStatus } from "./operations";
