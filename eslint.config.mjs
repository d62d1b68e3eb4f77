import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const RAW_SQL = [
  ...["$queryRaw", "$executeRaw", "$queryRawUnsafe", "$executeRawUnsafe", "$queryRawTyped"].map((property) => ({
    property,
    message: "Raw SQL goes through lib/db/sql.ts: tx.query(sql`…`) in a transaction(), or query(sql`…`).",
  })),
  // Every write opens its transaction with lib/db/transaction.ts, retried on a deadlock, the audit in it (decision 38).
  { property: "$transaction", message: "Open the transaction with lib/db/transaction.ts's transaction(): retried on a deadlock, tx.audit(…) in it." },
  ...["sql", "raw", "join", "empty"].map((property) => ({
    object: "Prisma",
    property,
    message: "Statements are written with lib/db/sql.ts's `sql`, `join` and `empty`.",
  })),
];

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  // Raw SQL goes through lib/db (the `sql` tag, `query`, a transaction's `tx.query`, `connection()`),
  // the one layer that sends it on PGlite and PostgreSQL alike, and so do transactions; Prisma's own
  // raw calls, templates and $transaction stay inside lib/db (and tests, which inspect and seed databases directly).
  {
    files: ["**/*.{ts,tsx,js,mjs,cjs}"],
    ignores: ["lib/db/**", "tests/**"],
    rules: { "no-restricted-properties": ["error", ...RAW_SQL] },
  },
  // The session cookie is next-auth's: read with next-auth/jwt's `decode`, never by a copy of it
  // built on the library next-auth uses underneath (decision 23).
  {
    files: ["**/*.{ts,tsx,js,mjs,cjs}"],
    rules: {
      "no-restricted-imports": ["error", { paths: [{ name: "jose", message: "Read next-auth's tokens with next-auth/jwt's decode (lib/auth/session.ts)." }] }],
    },
  },
  // Settings are read in one place each: the console's in lib/config.ts (config()), the tests' and
  // tools' in tools/env.ts (toolEnv()). Elsewhere only the framework's own variables are read
  // from process.env; writing one (for a child, or the process's own setting) and handing the
  // whole environment to a child process stay allowed. Plain-Node launchers (scripts/*.mjs), the
  // build's and test runners' configs and the tests themselves read theirs directly, and so does
  // bench/framework-floor, the benchmark's empty app with nothing of the console in it.
  {
    files: ["**/*.{ts,tsx,js,mjs,cjs}"],
    ignores: ["lib/config.ts", "tools/env.ts", "scripts/*.mjs", "next.config.js", "playwright.config.ts", "vitest.config.ts", "tests/**", "e2e/**", "bench/framework-floor/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        ...[
          "MemberExpression[computed=false][object.object.name='process'][object.property.name='env']:not([property.name=/^(NODE_ENV|NEXT_RUNTIME|NEXT_PHASE)$/]):not(AssignmentExpression > MemberExpression.left)",
          "MemberExpression[computed=true][object.object.name='process'][object.property.name='env']:not([property.name='SERVED_BY_CONSOLE']):not(AssignmentExpression > MemberExpression.left)",
          "VariableDeclarator[id.type='ObjectPattern'][init.object.name='process'][init.property.name='env']",
          "CallExpression > MemberExpression.arguments[object.name='process'][property.name='env']",
        ].map((selector) => ({
          selector,
          message: "Read settings through config() (lib/config.ts) or, in tests and tools, toolEnv() (tools/env.ts); only NODE_ENV, NEXT_RUNTIME and NEXT_PHASE are read directly.",
        })),
      ],
    },
  },
  // Pages are JSX, which React escapes: no markup written as text goes into a page, anywhere.
  { files: ["**/*.{ts,tsx}"], rules: { "react/no-danger": "error" } },
  // Playwright's fixtures call `use()`, which is not React's hook.
  { files: ["e2e/**"], rules: { "react-hooks/rules-of-hooks": "off" } },
  globalIgnores([".tmp-*/**", ".tmp-*", "bench/results/**", ".next/**", ".data/**", "lib/generated/**", "test-results/**", "playwright-report/**", "next-env.d.ts"]),
]);
