// Migrates the database, syncs reference data (countries) and, on the embedded database only,
// seeds the demo data when it is empty. `npm start` and `npm run dev` run this first.
import { openDatabase } from "@/lib/db/client";
import { applyMigrations, migrationTargetOf } from "@/tools/migrate";
import { seedDemo, syncCountries } from "@/tools/seed/demo";
import { runScript } from "./script-utils";

runScript(async () => {
  const database = await openDatabase();
  try {
    const applied = await applyMigrations(migrationTargetOf(database));
    console.log(applied.length ? `› Applied migrations: ${applied.join(", ")}` : "› Database schema is up to date.");
    await syncCountries(database.prisma);
    if (database.target.kind === "pglite") {
      const result = await seedDemo(database.prisma);
      if (result.seeded) console.log(`› Seeded demo data: ${result.subscribers} subscribers, ${result.branches} branches.`);
    }
  } finally {
    await database.close();
  }
});
