import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  // Playwright's fixtures call `use()`, which is not React's hook.
  { files: ["e2e/**"], rules: { "react-hooks/rules-of-hooks": "off" } },
  globalIgnores([".tmp-*/**", ".tmp-*", "bench/results/**", ".next/**", ".data/**", "lib/generated/**", "test-results/**", "playwright-report/**", "next-env.d.ts"]),
]);
