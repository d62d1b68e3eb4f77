import { defineConfig, devices } from "@playwright/test";
import { e2eSsoPort, toolEnv } from "./tools/env";

const { E2E_PORT: port, CHROMIUM_PATH: executablePath, CI } = toolEnv(["E2E_PORT", "CHROMIUM_PATH", "CI"]);
// The build with single sign-on set up (e2e/sso.spec.ts), beside the one every other spec uses.
const ssoPort = e2eSsoPort();

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  forbidOnly: CI,
  // No retries, in CI either: a test that passes only the second time is a failure to fix
  // (docs/decisions/0019-toolbar-e2e-without-retries.md).
  retries: 0,
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
  // The production build on a fresh embedded database of its own, seeded with the demo data; and
  // a second one whose single sign-on goes to a test OpenID provider (password sign-in stays on).
  webServer: [
    {
      command: `node scripts/e2e-server.mjs ${port}`,
      url: `http://localhost:${port}/login`,
      timeout: 180_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
    },
    {
      command: `node scripts/e2e-server.mjs ${ssoPort} --sso`,
      url: `http://localhost:${ssoPort}/login`,
      timeout: 180_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
    },
  ],
});
