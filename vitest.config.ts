import path from "node:path";
import { defineConfig } from "vitest/config";

const root = path.dirname(new URL(import.meta.url).pathname);

export default defineConfig({
  resolve: {
    alias: {
      "@": root,
      // `server-only` throws outside React Server Components; tests run the same modules in Node.
      "server-only": path.join(root, "tests/helpers/empty.ts"),
    },
  },
  test: {
    // Integration files open their own databases; on two cores a third file at a time is slower
    // (bench/results/vitest-workers.md).
    maxWorkers: 2,
    projects: [
      // Property tests run hundreds of cases: on two loaded cores (CI runs integration files beside
      // them) 5 s is the machine's limit, not the code's; speed is measured in bench/, not here.
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node", testTimeout: 30_000 } },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          setupFiles: ["tests/setup/next-request.ts"],
          globalSetup: ["tests/setup/database-templates.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // Against the production build over real HTTP (build first: npm test does), as an
        // attacker talks to it: raw requests, real cookies, no mocked session.
        extends: true,
        test: {
          name: "http",
          include: ["tests/http/**/*.test.ts"],
          globalSetup: ["tests/setup/database-templates.ts"],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
