// `npm run db:seed`: fills an EMPTY embedded database with the demo logins and data.
// It never touches a DATABASE_URL server: demo logins have public passwords.
import { openDatabase } from "@/lib/db/client";
import { databaseTarget } from "@/lib/db/config";
import { applyMigrations, migrationTargetOf } from "@/tools/migrate";
import { seedDemo } from "@/tools/seed/demo";
import { runScript } from "./script-utils";

runScript(async () => {
  const target = databaseTarget();
  if (target.kind !== "pglite") {
    throw new Error("db:seed only seeds the embedded database (demo logins must never reach a real server). Unset DATABASE_URL.");
  }
  const database = await openDatabase(target);
  try {
    await applyMigrations(migrationTargetOf(database));
    const result = await seedDemo(database.prisma);
    console.log(result.seeded ? `Seeded ${result.subscribers} subscribers and ${result.branches} branches.` : "The database already has data: nothing seeded.");
  } finally {
    await database.close();
  }
});
