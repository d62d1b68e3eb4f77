// What one axe scan of a page costs in each of @axe-core/playwright's modes: the default (a partial
// run per frame, merged in a blank page) and legacy (one run in the page), each with every result
// type detailed and with violations alone (axe's `resultTypes`). Prints the milliseconds of each
// scan and what it found, so that the modes can be seen to agree (docs/decisions/0052-axe-scans.md).
//
//   node scripts/e2e-server.mjs 3195 &     # the production build on a seeded embedded database
//   npx tsx scripts/bench/axe-modes.ts [--base http://localhost:3195] [--rounds 2] /subscribers /api/docs
import AxeBuilder from "@axe-core/playwright";
import { chromium } from "@playwright/test";
import { parseArgs } from "node:util";
import { toolEnv } from "@/tools/env";
import { DEMO_USERS } from "@/tools/seed/demo";
import { signIn } from "./server";

const { values, positionals } = parseArgs({
  options: { base: { type: "string", default: "http://localhost:3195" }, rounds: { type: "string", default: "2" } },
  allowPositionals: true,
});
const paths = positionals.length ? positionals : ["/subscribers", "/api/docs"];
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const MODES = [
  { name: "default, all results", legacy: false, violationsOnly: false },
  { name: "default, violations only", legacy: false, violationsOnly: true },
  { name: "legacy, all results", legacy: true, violationsOnly: false },
  { name: "legacy, violations only", legacy: true, violationsOnly: true },
];

const admin = DEMO_USERS.find((u) => u.role === "admin")!;
const cookie = await signIn(values.base, admin.email, admin.password);
const browser = await chromium.launch({ executablePath: toolEnv(["CHROMIUM_PATH"]).CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell", args: ["--no-sandbox"] });
const context = await browser.newContext({ baseURL: values.base, viewport: { width: 1280, height: 800 }, extraHTTPHeaders: { cookie } });
const page = await context.newPage();
for (const path of paths) {
  await page.goto(path);
  const elements = await page.evaluate(() => document.querySelectorAll("*").length);
  for (let round = 1; round <= Number(values.rounds); round++) {
    for (const mode of MODES) {
      const started = performance.now();
      const { violations } = await new AxeBuilder({ page })
        .withTags(TAGS)
        .options({ rules: { "label-content-name-mismatch": { enabled: true } }, ...(mode.violationsOnly ? { resultTypes: ["violations"] } : {}) })
        .setLegacyMode(mode.legacy)
        .analyze();
      const ms = Math.round(performance.now() - started);
      const found = violations.map((v) => `${v.id} (${v.impact}, ${v.nodes.length})`).join(", ") || "none";
      console.log(`${path} (${elements} elements), round ${round}, ${mode.name}: ${ms} ms; violations: ${found}`);
    }
  }
}
await browser.close();
