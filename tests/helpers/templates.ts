import fs from "node:fs";
import { inject } from "vitest";
import { openPGlite } from "@/lib/db/pglite";
import { applyMigrations } from "@/tools/migrate";
import { createTestDatabase, type TestDatabase } from "./postgres";

// Fresh migrated databases, copied from the run's templates (tests/setup/database-templates.ts);
// outside Vitest (a bench script using a helper) they are migrated from empty as before.

function provided<K extends "pgliteTemplate" | "postgresTemplate">(key: K) {
  try {
    return inject(key);
  } catch {
    return undefined; // not in a Vitest worker
  }
}

/** A migrated PGlite database, in memory or in `dir` (a folder that does not exist yet). */
export async function migratedPGlite(dir?: string) {
  const template = provided("pgliteTemplate");
  if (!template) {
    const pglite = await openPGlite(dir);
    await applyMigrations(pglite);
    return pglite;
  }
  return openPGlite(dir, { loadDataDir: new Blob([fs.readFileSync(template)]) });
}

/** A new, migrated PostgreSQL database on the server of `baseUrl`; the caller drops it. */
export async function migratedPostgres(baseUrl: string): Promise<TestDatabase> {
  const template = provided("postgresTemplate");
  const created = await createTestDatabase(baseUrl, template ?? undefined);
  if (!template) await applyMigrations(created.url);
  return created;
}
