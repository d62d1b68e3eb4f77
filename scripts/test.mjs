// `npm test`: install what is missing, then type checks, lint, unit + integration tests (Vitest)
// and end-to-end tests (Playwright, against the production build). Integration tests also run on
// PostgreSQL: TEST_DATABASE_URL, else the local server when one answers on 127.0.0.1:5432.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { ensureDeps } from "./ensure-deps.mjs";
import { testDatabase } from "./test-database.mjs";

ensureDeps();
process.env.NEXT_TELEMETRY_DISABLED = "1"; // no network calls from next build

const step = (title, cmd, args, env = process.env) => {
  console.log(`\n━━ ${title} ━━`);
  const r = spawnSync(cmd, args, { stdio: "inherit", env });
  if (r.status !== 0) {
    console.error(`\n✗ ${title} failed.`);
    process.exit(r.status ?? 1);
  }
};

step("Type check", "npx", ["tsc", "--noEmit"]);
step("Lint", "npx", ["eslint", ".", "--max-warnings=0"]);
// The build comes first: the outage and load tests run the production server.
step("Build", "npx", ["next", "build"], { ...process.env, NODE_ENV: "production" });
// PostgreSQL: TEST_DATABASE_URL, else the local server when one answers on 127.0.0.1:5432.
const database = await testDatabase();
console.log(`\n› ${database.note}`);
if (database.url) process.env.TEST_DATABASE_URL = database.url;
else delete process.env.TEST_DATABASE_URL;
step("Unit and integration tests", "npx", ["vitest", "run"]);

const browser = findBrowser();
step("End-to-end tests", "npx", ["playwright", "test"], { ...process.env, ...(browser ? { CHROMIUM_PATH: browser } : {}) });

/**
 * A Chromium already installed, else Playwright's own download, else apt as root, else stop.
 * Debian's headless shell first: it is what Playwright itself runs headless tests in, and it
 * costs the end-to-end tests about a quarter less CPU than the full browser (docs/development.md).
 */
function findBrowser() {
  for (const p of [process.env.CHROMIUM_PATH, "/usr/bin/chromium-headless-shell", "/usr/bin/chromium", "/usr/bin/chromium-browser"]) {
    if (p && fs.existsSync(p)) return p;
  }
  const download = spawnSync("npx", ["playwright", "install", "chromium"], { stdio: "inherit" });
  if (download.status === 0) return undefined; // Playwright's own browser
  if (process.getuid?.() === 0 && fs.existsSync("/usr/bin/apt-get")) {
    console.log("› Installing Debian's headless Chromium with apt-get…");
    spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
    const r = spawnSync("apt-get", ["install", "-y", "-qq", "chromium-headless-shell"], { stdio: "inherit" });
    if (r.status === 0 && fs.existsSync("/usr/bin/chromium-headless-shell")) return "/usr/bin/chromium-headless-shell";
  }
  console.error(
    "\nNo Chromium for the end-to-end tests. Install one, then run npm test again:\n" +
      "  sudo apt-get install chromium-headless-shell   (Debian)\n" +
      "  npx playwright install chromium                 (where downloads are allowed)\n" +
      "or set CHROMIUM_PATH to a Chromium or Chrome binary.",
  );
  process.exit(1);
}
