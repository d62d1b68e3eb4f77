// The migrations of prisma/migrations, applied with the WebAssembly schema engine
// (tools/migrate/) on the embedded database and, when TEST_DATABASE_URL is set, on PostgreSQL.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, defaultPaths, diffSql, migrationNames, type MigrationTarget } from "@/tools/migrate";
import { openPGlite } from "@/lib/db/pglite";
import { createTestDatabase } from "../helpers/postgres";

type Row = Record<string, unknown>;
type Connection = {
  target: MigrationTarget;
  query(text: string, params?: unknown[]): Promise<Row[]>;
  close(): Promise<void>;
};

const folders = migrationNames();

async function pgliteConnection(): Promise<Connection> {
  const pglite = await openPGlite();
  return {
    target: pglite,
    query: async (text, params) => (await pglite.query<Row>(text, params)).rows,
    close: () => pglite.close(),
  };
}

async function postgresConnection(baseUrl: string): Promise<Connection> {
  const database = await createTestDatabase(baseUrl);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  return {
    target: database.url,
    query: async (text, params) => (await client.query<Row>(text, params)).rows,
    close: async () => {
      await client.end().catch(() => {});
      await database.drop();
    },
  };
}

/** The same checks on each kind of database. */
function migrationSuite(name: string, connect: () => Promise<Connection>) {
  describe(name, () => {
    let db: Connection;
    let firstRun: string[];

    beforeAll(async () => {
      db = await connect();
      firstRun = await applyMigrations(db.target);
    });
    afterAll(async () => {
      await db?.close();
    });

    it("applies every migration folder, in order", () => {
      expect(folders.length).toBeGreaterThan(0);
      expect(folders).toContain("20261122000000_init");
      expect(firstRun).toEqual(folders);
    });

    it("records each in _prisma_migrations as finished, as `prisma migrate deploy` does", async () => {
      const rows = await db.query(
        `SELECT migration_name, finished_at, rolled_back_at, applied_steps_count, checksum
           FROM _prisma_migrations ORDER BY started_at, migration_name`,
      );
      expect(rows.map((r) => r.migration_name)).toEqual(folders);
      for (const row of rows) {
        expect(row.finished_at).toBeInstanceOf(Date);
        expect(row.rolled_back_at).toBeNull();
        expect(row.applied_steps_count).toBe(1);
        expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
      }
    });

    it("ends with a vacuum of every table, so rows a migration filled are all-visible and have figures", async () => {
      const rows = await db.query(
        `SELECT t.tablename, s.last_vacuum, s.last_analyze FROM pg_tables t
           JOIN pg_stat_user_tables s ON s.relname = t.tablename AND s.schemaname = t.schemaname
          WHERE t.schemaname = current_schema() ORDER BY t.tablename`,
      );
      expect(rows.map((r) => r.tablename)).toContain("subscribers");
      expect(rows.filter((r) => !(r.last_vacuum instanceof Date) || !(r.last_analyze instanceof Date))).toEqual([]);
    });

    it("applies nothing the second time", async () => {
      expect(await applyMigrations(db.target)).toEqual([]);
      const [count] = await db.query("SELECT count(*)::int AS n FROM _prisma_migrations");
      expect(count?.n).toBe(folders.length);
    });

    it("makes branch names unique regardless of case (branches_name_lower_key)", async () => {
      await db.query(`INSERT INTO branches (name, updated_at) VALUES ('Paris', now())`);
      await expect(db.query(`INSERT INTO branches (name, updated_at) VALUES ('PARIS', now())`)).rejects.toMatchObject({
        code: "23505",
      });
      await db.query(`INSERT INTO branches (name, updated_at) VALUES ('Lyon', now())`);
      const rows = await db.query(`SELECT name FROM branches ORDER BY name`);
      expect(rows.map((r) => r.name)).toEqual(["Lyon", "Paris"]);
    });

    it("runs a function body with plain semicolons: deactivating a user by hand-written SQL ends their sessions for good", async () => {
      const [user] = await db.query(
        `INSERT INTO users (email, name, password_hash, role, updated_at) VALUES ('gone@example.com', 'Gone', 'x', 'staff', now()) RETURNING id, session_version`,
      );
      const version = async () => (await db.query(`SELECT session_version FROM users WHERE id = $1`, [user!.id]))[0]!.session_version;
      expect(await version()).toBe(0);
      await db.query(`UPDATE users SET name = 'Still here' WHERE id = $1`, [user!.id]);
      expect(await version()).toBe(0); // other changes leave sessions alone
      await db.query(`UPDATE users SET active = false WHERE id = $1`, [user!.id]);
      expect(await version()).toBe(1);
      await db.query(`UPDATE users SET active = false, name = 'Twice' WHERE id = $1`, [user!.id]);
      expect(await version()).toBe(1); // already inactive: nothing more to end
      await db.query(`UPDATE users SET active = true WHERE id = $1`, [user!.id]);
      expect(await version()).toBe(1); // reactivating does not bring version 0's cookies back
    });

    it("creates the pg_trgm extension", async () => {
      const rows = await db.query(`SELECT extname FROM pg_extension WHERE extname = 'pg_trgm'`);
      expect(rows).toHaveLength(1);
    });

    it("leaves the database as prisma/schema.prisma describes it", async () => {
      expect(await diffSql({ kind: "database", target: db.target }, { kind: "schema" })).toBe("");
    });
  });
}

migrationSuite("migrations on the embedded database (PGlite)", pgliteConnection);

const postgresUrl = process.env.TEST_DATABASE_URL;
if (postgresUrl) {
  migrationSuite("migrations on PostgreSQL", () => postgresConnection(postgresUrl));
} else {
  console.info("TEST_DATABASE_URL is not set: the PostgreSQL migration suite is not defined in this run.");
}

describe("schema drift", () => {
  it("prisma/schema.prisma and prisma/migrations agree (else: npm run db:migration:new -- <name>)", async () => {
    const sql = await diffSql({ kind: "migrations" }, { kind: "schema" });
    expect(sql, `schema.prisma has changes that no migration makes:\n${sql}`).toBe("");
  });

  it("reports a change of schema.prisma that no migration makes", async () => {
    const schema = fs.readFileSync(defaultPaths().schemaPath, "utf8");
    const changed = schema.replace(/^(model Branch \{\n)/m, "$1  drift_probe String?\n");
    expect(changed).not.toBe(schema);
    const sql = await diffSql({ kind: "migrations" }, { kind: "schema", content: changed });
    expect(sql).toMatch(/ALTER TABLE "branches" ADD COLUMN\s+"drift_probe" TEXT/);
  });

  describe("what Prisma's schema language cannot express, written by hand in a migration", () => {
    // A project of its own, so that this holds whatever the real schema becomes. Like ours, it
    // declares a partial index with the partialIndexes preview feature (which makes the engine
    // describe partial indexes) and leaves an expression index and an extension to the migration.
    let root: string;
    const schema = [
      `generator client {\n  provider        = "prisma-client"\n  output          = "./generated"\n  previewFeatures = ["partialIndexes"]\n}\n`,
      `datasource db {\n  provider = "postgresql"\n}\n`,
      `model Thing {\n  id   Int    @id\n  name String\n  kind String\n\n` +
        `  @@unique([name], map: "things_one_draft", where: raw("kind = 'draft'"))\n  @@map("things")\n}\n`,
    ].join("\n");
    const handWritten = {
      top: "CREATE EXTENSION IF NOT EXISTS pg_trgm;",
      bottom: `CREATE UNIQUE INDEX "things_name_lower_key" ON "things" (lower("name"));`,
    };

    beforeAll(async () => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), "migrations-test-"));
      fs.mkdirSync(path.join(root, "prisma/migrations/20260101000000_init"), { recursive: true });
      fs.writeFileSync(path.join(root, "prisma/schema.prisma"), schema);
      fs.writeFileSync(
        path.join(root, "prisma/migrations/migration_lock.toml"),
        fs.readFileSync(path.join(defaultPaths().migrationsDir, "migration_lock.toml")),
      );
      const generated = await diffSql({ kind: "empty" }, { kind: "schema" }, defaultPaths(root));
      expect(generated).toContain(`CREATE TABLE "things"`);
      expect(generated).toMatch(/CREATE UNIQUE INDEX "things_one_draft" ON "things"\("name"\) WHERE/);
      fs.writeFileSync(
        path.join(root, "prisma/migrations/20260101000000_init/migration.sql"),
        `${handWritten.top}\n\n${generated}\n${handWritten.bottom}\n`,
      );
    });
    afterAll(() => {
      if (root) fs.rmSync(root, { recursive: true, force: true });
    });

    it("is not reported as drift (expression index, extension)", async () => {
      expect(await diffSql({ kind: "migrations" }, { kind: "schema" }, defaultPaths(root))).toBe("");
    });

    it("is not dropped by the migration generated for the next schema change", async () => {
      const next = schema.replace("  kind String\n", "  kind String\n  note String?\n");
      const sql = await diffSql({ kind: "migrations" }, { kind: "schema", content: next }, defaultPaths(root));
      expect(sql).toMatch(/ADD COLUMN\s+"note" TEXT/);
      expect(sql).not.toMatch(/DROP/i);
    });
  });
});
