import { fromPGlite, openDatabase, setDatabaseForTests, type Database } from "@/lib/db/client";
import type { SessionUser } from "@/lib/auth/permissions";
import { toolEnv } from "@/tools/env";
import { migratedPGlite, migratedPostgres } from "./templates";

export type TestDbKind = "pglite" | "postgres";

/** The database kinds integration suites run on: PGlite always, PostgreSQL when configured. */
export function testDbKinds(): TestDbKind[] {
  if (!toolEnv(["TEST_DATABASE_URL"]).TEST_DATABASE_URL) {
    console.info("TEST_DATABASE_URL is not set: PostgreSQL suites are not defined in this run.");
    return ["pglite"];
  }
  return ["pglite", "postgres"];
}

/** A fresh, migrated database of its own, used by the app's code (`db()`) for this test file. */
export async function testDatabase(kind: TestDbKind): Promise<Database> {
  if (kind === "pglite") {
    const pglite = await migratedPGlite();
    const database = fromPGlite(pglite, { kind: "pglite", dir: "memory://" }, () => pglite.close());
    setDatabaseForTests(database);
    return database;
  }
  const created = await migratedPostgres(toolEnv(["TEST_DATABASE_URL"]).TEST_DATABASE_URL!);
  const database = await openDatabase({ kind: "postgres", url: created.url });
  const close = database.close;
  database.close = async () => {
    await close();
    await created.drop();
  };
  setDatabaseForTests(database);
  return database;
}

/** Users to act as; created in the test database by `createUsers`. */
export async function createUsers(database: Database) {
  const make = async (email: string, name: string, role: "admin" | "staff") => ({ ...(await makeRow(email, name, role)), branch_ids: null });
  const makeRow = (email: string, name: string, role: "admin" | "staff") =>
    database.prisma.user.create({
      data: { email, name, role, password_hash: "scrypt$1$1$1$x$y" },
      select: { id: true, email: true, name: true, role: true },
    });
  const admin = await make(`admin-${Date.now()}@test.local`, "Test Admin", "admin");
  const staff = await make(`staff-${Date.now()}@test.local`, "Test Staff", "staff");
  return { admin: admin as SessionUser, staff: staff as SessionUser };
}

/** Who the app's guards see as signed in (the mock lives in tests/setup/next-request.ts). */
export function actAs(user: SessionUser | null) {
  (globalThis as { __test_session_user?: SessionUser | null }).__test_session_user = user;
}
