import { defineConfig, devices } from "@playwright/test";
import { toolEnv } from "./tools/env";

const { E2E_PORT: port, CHROMIUM_PATH: executablePath, CI } = toolEnv(["E2E_PORT", "CHROMIUM_PATH", "CI"]);

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  forbidOnly: CI,
  retries: CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    ...devices["Desktop Chrome"],
    launchOptions: {
      ...(executablePath ? { executablePath } : {}),
      args: [
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
        "--no-sandbox",
      ],
    },
  },
  // The production build on a fresh embedded database of its own, seeded with the demo data.
  webServer: {
    command: `node scripts/e2e-server.mjs ${port}`,
    url: `http://localhost:${port}/login`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
  },
});
