import { z } from "zod";
import { BUILD_ID_PATTERN } from "../scripts/build-id.mjs";

// The settings of the tests and tools (benchmarks, the load test, test runners, the build's id),
// read and checked here as lib/config.ts does for the console's own: a bad value stops the tool
// with a message naming the variable (BENCH_RUNS=abc used to become NaN and silently run
// nothing). They are never the console's settings, so a tool asks only for the ones it uses
// (`toolEnv(["BENCH_RUNS"])`) and a bad one elsewhere stops no server. The "Tests and tools
// only" table of docs/configuration.md lists exactly these (tests/unit/config.test.ts compares
// the two).
//
// Plain-Node launchers that run before TypeScript can (scripts/*.mjs: `npm start`, `npm test`,
// the build id for next.config.js) read their few variables themselves, with the same rules.

export class ToolEnvError extends Error {}

/** Unset or blank means the default. */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : typeof v === "string" ? v.trim() : v), schema.optional());

const whole = (min: number, fallback: number) =>
  optional(
    z
      .string()
      .regex(/^\d+$/, `must be a whole number, at least ${min}`)
      .transform(Number)
      .refine((n) => n >= min && Number.isSafeInteger(n), `must be a whole number, at least ${min}`),
  ).transform((n) => n ?? fallback);

const positive = (fallback: number) =>
  optional(
    z
      .string()
      .regex(/^\d+(\.\d+)?$/, "must be a positive number")
      .transform(Number)
      .refine((n) => n > 0, "must be a positive number"),
  ).transform((n) => n ?? fallback);

/** Set (to anything but 0, false, off or no) or not. */
const flag = optional(z.string()).transform((v) => v !== undefined && !/^(0|false|off|no)$/i.test(v));

const postgresUrl = optional(z.string().regex(/^postgres(ql)?:\/\/\S+$/, "must be a postgres:// or postgresql:// URL"));

const schema = z.object({
  // Tests
  TEST_DATABASE_URL: postgresUrl,
  PG_BIN: optional(z.string()).transform((dir) => dir ?? "/usr/lib/postgresql/15/bin"),
  CHROMIUM_PATH: optional(z.string()),
  E2E_PORT: whole(1, 3100).refine((n) => n < 65536, "must be a port number (1–65535)"),
  // Unset: E2E_PORT + 1 (playwright.config.ts).
  E2E_SSO_PORT: optional(
    z
      .string()
      .regex(/^\d+$/, "must be a port number (1–65535)")
      .transform(Number)
      .refine((n) => n >= 1 && n < 65536, "must be a port number (1–65535)"),
  ),
  CI: flag,
  OUTAGE_SERVER_LOG: optional(z.string()),
  APP_DIR: optional(z.string()),
  // Building and generating
  BUILD_ID: optional(z.string().regex(BUILD_ID_PATTERN, "must be 1 to 64 letters, digits, dots, underscores or hyphens")),
  PRISMA_SCHEMA_ENGINE_BINARY: optional(z.string()),
  DEBUG: optional(z.string()),
  // npm run test:load
  LOAD_CONNECTIONS: positive(50),
  LOAD_DURATION: positive(60),
  LOAD_WARMUP: positive(15),
  LOAD_WARMUP_REQUESTS: positive(3000),
  LOAD_RSS_LIMIT_MB: positive(50),
  LOAD_DATABASE_URL: postgresUrl,
  LOAD_TARGETS: optional(
    z
      .string()
      .transform((list) => list.split(",").map((t) => t.trim()).filter(Boolean))
      .refine((paths) => paths.length > 0 && paths.every((p) => /^\/\S*$/.test(p)), "must be paths separated by commas, e.g. /branches,/api/v1/branches"),
  ),
  // npm run rehearse:upgrade (scripts/rehearse-upgrade.ts); unset: TEST_DATABASE_URL.
  REHEARSAL_DATABASE_URL: postgresUrl,
  REHEARSAL_PORT: whole(1, 3300).refine((n) => n < 65531, "must be a port number (1–65530): it and the four after it are used"),
  // Benchmarks
  BENCH_DATABASE_URL: postgresUrl,
  BENCH_RUNS: whole(1, 3),
  BENCH_REUSE_DB: optional(z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, "must be the name of a database kept by an earlier run (lowercase letters, digits, _)")),
  BENCH_KEEP_DB: flag,
  BENCH_WORKER_HEAP_MB: whole(0, 512),
  BENCH_IMPORT_RUNS: whole(1, 2),
  BENCH_IMPORT_ONLY: optional(z.enum(["xlsx"], { message: "must be xlsx (only the XLSX run) or unset" })),
  BENCH_IMPORT_TRACE: flag,
});

export type ToolEnv = z.output<typeof schema>;
export type ToolVariable = keyof ToolEnv;

/** Every variable of the tests and tools (docs/configuration.md's "Tests and tools only" table lists exactly these). */
export const TOOL_VARIABLES = Object.keys(schema.shape) as ToolVariable[];

/** The values of `names` in `env`; a ToolEnvError naming every bad one. */
export function toolEnv<K extends ToolVariable>(names: readonly K[], env: Record<string, string | undefined> = process.env): Pick<ToolEnv, K> {
  const mask = Object.fromEntries(names.map((name) => [name, true])) as { [N in ToolVariable]?: true };
  const parsed = schema.pick(mask).safeParse(env);
  if (!parsed.success) throw new ToolEnvError(parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}.`).join("\n"));
  return parsed.data as Pick<ToolEnv, K>;
}

/** The port of the end-to-end build with single sign-on: E2E_SSO_PORT, else E2E_PORT + 1. */
export function e2eSsoPort(env: Record<string, string | undefined> = process.env): number {
  const { E2E_PORT, E2E_SSO_PORT } = toolEnv(["E2E_PORT", "E2E_SSO_PORT"], env);
  return E2E_SSO_PORT ?? E2E_PORT + 1;
}
