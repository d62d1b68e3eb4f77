import { defineConfig } from "prisma/config";

// The Prisma CLI is only used for `prisma generate` here (see scripts/prisma-generate.mjs);
// migrations go through scripts/migrate.ts, which drives the same schema engine as WebAssembly.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
