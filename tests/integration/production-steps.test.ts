import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { verifyPassword } from "@/lib/auth/password";
import { createTestDatabase, type TestDatabase } from "../helpers/postgres";

// Issue 19, point 8: the production steps of docs/deployment.md as an operator runs them, on a fresh
// PostgreSQL database: `npm run db:migrate` also fills the country list (it applied the
// migrations only), and `npm run user:create` takes the password from standard input when that
// is not a terminal. The same commands on the embedded database run everywhere.

type Run = { code: number | null; output: string };

/** `tsx scripts/<script>` as `npm run` starts it (package.json's options), with `input` on its standard input. */
function runScript(script: string, args: string[], env: Record<string, string>, input = ""): Promise<Run> {
  const conditions = script === "create-user.ts" ? ["--conditions=react-server"] : [];
  const child = spawn(process.execPath, [...conditions, "--import", "tsx", `scripts/${script}`, ...args], {
    env: { ...process.env, DATABASE_URL: "", PGLITE_DIR: "", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  child.stdin.end(input);
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, output })));
}

type Query = <T>(text: string) => Promise<T[]>;

async function operatorSteps(env: Record<string, string>, query: () => Promise<{ query: Query; close: () => Promise<void> }>) {
  const migrate = await runScript("migrate.ts", ["deploy"], env);
  expect(migrate.code, migrate.output).toBe(0);

  const created = await runScript(
    "create-user.ts",
    ["--email", "Ops@Example.com", "--name", "Ops Person", "--role", "admin"],
    env,
    "a long enough password\n",
  );
  expect(created.code, created.output).toBe(0);
  expect(created.output).toMatch(/Created admin ops@example\.com/);
  const refused = await runScript("create-user.ts", ["--email", "short@example.com", "--name", "S", "--role", "staff"], env, "short\n");
  expect(refused.code).toBe(1);
  expect(refused.output).toMatch(/at least 12 characters/);
  // The same password rule as the users page: a common password is refused too.
  const common = await runScript("create-user.ts", ["--email", "common@example.com", "--name", "C", "--role", "staff"], env, "password1234\n");
  expect(common.code).toBe(1);
  expect(common.output).toMatch(/too easy to guess/);

  const db = await query();
  try {
    const [countries] = await db.query<{ n: number; gb: number }>(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE code = 'GB')::int AS gb FROM countries`,
    );
    expect(countries!.n).toBeGreaterThan(200);
    expect(countries!.gb).toBe(1);
    expect(migrate.output).toMatch(/Country list: 2\d\d countries/);
    const users = await db.query<{ email: string; role: string; password_hash: string }>(`SELECT email, role::text, password_hash FROM users`);
    expect(users.map((u) => [u.email, u.role])).toEqual([["ops@example.com", "admin"]]);
    expect(await verifyPassword("a long enough password", users[0]!.password_hash)).toBe(true);
  } finally {
    await db.close();
  }

  // Again: nothing to apply, the country list stays whole.
  const again = await runScript("migrate.ts", ["deploy"], env);
  expect(again.code, again.output).toBe(0);
  expect(again.output).toMatch(/No pending migrations/);
}

describe("production steps on the embedded database", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "production-steps-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("db:migrate fills the country list; user:create reads the password from standard input", async () => {
    const pgliteDir = path.join(dir, "pglite");
    await operatorSteps({ PGLITE_DIR: pgliteDir }, async () => {
      const { openPGlite } = await import("@/lib/db/pglite");
      const pglite = await openPGlite(pgliteDir);
      return {
        query: async <T,>(text: string) => (await pglite.query<T>(text)).rows,
        close: async () => {
          await pglite.close();
          pglite.release();
        },
      };
    });
  }, 120_000);
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("production steps on a fresh PostgreSQL database", () => {
  let database: TestDatabase | undefined;
  afterAll(async () => database?.drop());

  it("db:migrate fills the country list; user:create reads the password from standard input", async () => {
    database = await createTestDatabase(process.env.TEST_DATABASE_URL!);
    const url = database.url;
    await operatorSteps({ DATABASE_URL: url }, async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return { query: async <T,>(text: string) => (await client.query(text)).rows as T[], close: () => client.end() };
    });
  }, 120_000);
});
