import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import scopedSources from "./tools/lint/scoped-sources.mjs";
import callAction from "./tools/lint/call-action.mjs";
import writesInTransaction from "./tools/lint/writes-in-transaction.mjs";

const consoleRules = { rules: { "scoped-sources": scopedSources, "writes-in-transaction": writesInTransaction } };

const RAW_SQL = [
  ...["$queryRaw", "$executeRaw", "$queryRawUnsafe", "$executeRawUnsafe", "$queryRawTyped"].map((property) => ({
    property,
    message: "Raw SQL goes through lib/db/sql.ts: tx.query(sql`…`) in a transaction(), or query(sql`…`).",
  })),
  // Every write opens its transaction with lib/db/transaction.ts, retried on a deadlock, the audit in it (decision 38).
  { property: "$transaction", message: "Open the transaction with lib/db/transaction.ts's transaction(): retried on a deadlock, tx.audit(…) in it." },
  ...["sql", "raw", "join", "empty", "Sql"].map((property) => ({
    object: "Prisma",
    property,
    message: "Statements are written with lib/db/sql.ts's `sql`, `join` and `empty`.",
  })),
];

const JOSE = { name: "jose", message: "Read next-auth's tokens with next-auth/jwt's decode (lib/auth/session.ts)." };
const SESSION_ONLY_IN_AUTH = { name: "@/lib/auth/session", message: "Ask the guards (lib/auth/guards.ts): currentPrincipal(), currentUser(), requireUser()…, which read the principal once." };
const PRINCIPAL_ONLY = [
  { name: "@/lib/auth/scope", importNames: ["branchScope", "branchScopeOfUser"], message: "Use the scope the guard's user carries: (await requireUser()).scope." },
  SESSION_ONLY_IN_AUTH,
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
  // Statements on subscribers and branches start from the scoped sources (decision 37); the bare
  // tables only where every row is truly meant:
  {
    files: ["**/*.{ts,tsx,js,mjs,cjs}"],
    ignores: [
      "lib/auth/scope.ts", // defines the sources
      "lib/subscribers/duplicates.ts", // the duplicate rule decides every row's flag alike, whoever asks (decision 32)
      "lib/trash/subscribers.ts", // moves subscribers out of the table into the trash and back (decision 31)
      "lib/trash/branches.ts", // restores and erases branches in the trash
      "tools/**", "scripts/**", "bench/**", // seed and measure the whole database, outside the app
      "tests/**", "e2e/**", // seed and inspect databases directly
    ],
    plugins: { console: consoleRules },
    rules: { "console/scoped-sources": "error" },
  },
  // Every write runs in transaction(), sent by its tx: retried on a deadlock, its audit event in it
  // (decision 38). lib/db defines the path; tools, scripts, benchmarks and tests seed and measure
  // databases of their own.
  {
    files: ["**/*.{ts,tsx,js,mjs,cjs}"],
    ignores: ["lib/db/**", "tools/**", "scripts/**", "bench/**", "tests/**", "e2e/**"],
    plugins: { console: consoleRules },
    rules: { "console/writes-in-transaction": "error" },
  },
  // The session cookie is next-auth's: read with next-auth/jwt's `decode`, never by a copy of it
  // built on the library next-auth uses underneath (decision 23).
  {
    files: ["**/*.{ts,tsx,js,mjs,cjs}"],
    rules: { "no-restricted-imports": ["error", { paths: [JOSE] }] },
  },
  // Pages, actions and routes decide on the request's one principal (decision 40): the user and
  // branch scope the guards return, never a scope or session worked out again beside it.
  {
    files: ["app/**", "components/**"],
    plugins: { actions: { rules: { "call-action": callAction } } },
    rules: {
      "no-restricted-imports": ["error", { paths: [JOSE, ...PRINCIPAL_ONLY] }],
      "actions/call-action": "error",
    },
  },
  // Below the pages too, the session is read by lib/auth alone, which makes the principal of it.
  {
    files: ["lib/**"],
    ignores: ["lib/auth/**"],
    rules: { "no-restricted-imports": ["error", { paths: [JOSE, SESSION_ONLY_IN_AUTH] }] },
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
