import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openPGlite } from "@/lib/db/pglite";
import { applyMigrations } from "@/tools/migrate";
import { toolEnv } from "@/tools/env";
import { createTestDatabase } from "../helpers/postgres";

// A test's fresh database starts as a copy of one migrated once per run, not from an empty
// cluster: PGlite from a dump of its folder, PostgreSQL from a template database
// (docs/decisions/0051-test-databases-from-templates.md).

declare module "vitest" {
  export interface ProvidedContext {
    /** A file holding the dump (`dumpDataDir`) of a migrated PGlite database. */
    pgliteTemplate: string;
    /** A migrated PostgreSQL database to copy (`CREATE DATABASE … TEMPLATE`), when TEST_DATABASE_URL names a server. */
    postgresTemplate: string | null;
  }
}

type Templates = { pglite: string; postgres: string | null; release(): Promise<void> };
type Holder = { __consoleTestTemplates?: { templates: Promise<Templates>; users: number } };

async function buildTemplates(): Promise<Templates> {
  const file = path.join(os.tmpdir(), `console-test-pglite-${process.pid}.tar`);
  const pglite = await openPGlite();
  try {
    await applyMigrations(pglite);
    fs.writeFileSync(file, Buffer.from(await (await pglite.dumpDataDir("none")).arrayBuffer()), { mode: 0o600 });
  } finally {
    await pglite.close();
  }
  const url = toolEnv(["TEST_DATABASE_URL"]).TEST_DATABASE_URL;
  const postgres = url ? await createTestDatabase(url) : null;
  if (url && postgres) {
    await applyMigrations(postgres.url);
    // A template is copied only while nobody is connected to it: the migration's pool is gone.
    await closeIdle(url, postgres.name);
  }
  return {
    pglite: file,
    postgres: postgres?.name ?? null,
    async release() {
      fs.rmSync(file, { force: true });
      await postgres?.drop();
    },
  };
}

/** Waits until the migration tool's connections to database `name` have ended (asked on `baseUrl`'s). */
async function closeIdle(baseUrl: string, name: string) {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    for (let i = 0; i < 100; i++) {
      const { rows } = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1", [name]);
      if (rows[0]!.n === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`The template database ${name} still has connections.`);
  } finally {
    await client.end();
  }
}

/** Built once for the run (the projects that use it share the main process), dropped after the last. */
export default async function setup(project: TestProject) {
  const holder = globalThis as Holder;
  holder.__consoleTestTemplates ??= { templates: buildTemplates(), users: 0 };
  const shared = holder.__consoleTestTemplates;
  shared.users++;
  const templates = await shared.templates;
  project.provide("pgliteTemplate", templates.pglite);
  project.provide("postgresTemplate", templates.postgres);
  return async () => {
    if (--shared.users === 0) {
      delete holder.__consoleTestTemplates;
      await templates.release();
    }
  };
}
