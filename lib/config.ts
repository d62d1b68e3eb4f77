import path from "node:path";
import { z } from "zod";
import { BrandedError } from "@/lib/errors";
import { LOCALES } from "@/lib/i18n/locales";
import { processWide } from "@/lib/process-wide";

// The one place settings are read from the environment and validated, so a bad value stops the
// server at start; docs/configuration.md lists exactly these variables (a test compares them).
// Runtime-neutral: the proxy, server.ts and scripts read it too.

export class ConfigError extends BrandedError {
  static readonly brand: string = "console.ConfigError";
}

const MIN_SECRET_BYTES = 32;
const SECRET_HELP =
  "Make one with `openssl rand -base64 32` and keep it where the server reads it on every start " +
  "(your secret manager, or an env file readable only by the service): changing it signs everyone out.";

/** Checks a session-signing secret: long enough to resist guessing, and not blank. */
export function secretProblem(value: string | undefined): string | null {
  if (value === undefined || value === "") return "is not set";
  if (value.trim() === "") return "is only whitespace";
  if (Buffer.byteLength(value, "utf8") < MIN_SECRET_BYTES) return `is shorter than ${MIN_SECRET_BYTES} bytes`;
  return null;
}

/** Unset or blank means the default. */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : typeof v === "string" ? v.trim() : v), schema.optional());

/** A whole number, or undefined when unset (its default depends on other settings). */
const wholeOrUnset = (min: number, what = "a whole number") => {
  const message = `must be ${what}${min > 0 ? `, at least ${min}` : ""}`;
  return optional(z.string().regex(/^\d+$/, message).transform(Number).refine((n) => n >= min && Number.isSafeInteger(n), message));
};

const whole = (min: number, fallback: number, what?: string) => wholeOrUnset(min, what).transform((n) => n ?? fallback);

const onOff = (fallback: "on" | "off") =>
  optional(z.enum(["on", "off"], { message: "must be on or off" })).transform((v) => (v ?? fallback) === "on");

/** 1/0 (also on/off, true/false): the webhook switches, named so in docs/API.md. */
const flag = optional(z.enum(["1", "0", "on", "off", "true", "false"], { message: "must be 1 or 0" })).transform((v) => v === "1" || v === "on" || v === "true");

/** Comma-separated group names (or ids), blanks dropped. */
const groupList = optional(z.string()).transform((list) => (list ?? "").split(",").map((g) => g.trim()).filter(Boolean));

/** An issuer's URL: https, or http on a loopback address (a provider run by the tests, or beside the console). */
function isIssuer(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.search || parsed.hash || parsed.username || parsed.password) return false;
  if (parsed.protocol === "https:") return true;
  return parsed.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(parsed.hostname);
}

const timeZone = optional(
  z.string().refine((zone) => {
    try {
      new Intl.DateTimeFormat("en", { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, "must be a time zone, e.g. Europe/London"),
).transform((zone) => zone ?? "UTC");

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
const logLevelSetting = optional(z.enum(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(", ")}` })).transform((level) => level ?? "info");

/**
 * LOG_LEVEL alone, never throwing: the logger must work while the other settings are wrong (to say
 * why the server refuses to start); config() still refuses a bad value.
 */
export function logLevel(): (typeof LOG_LEVELS)[number] {
  const parsed = logLevelSetting.safeParse(process.env.LOG_LEVEL);
  return parsed.success ? parsed.data : "info";
}

const schema = z.object({
  // Database
  DATABASE_URL: optional(z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")),
  PGLITE_DIR: optional(z.string()).transform((dir) => path.resolve(/*turbopackIgnore: true*/ dir ?? ".data/pglite")),
  DATABASE_POOL_SIZE: whole(1, 10),
  DATABASE_STATEMENT_TIMEOUT_MS: whole(0, 5_000, "a whole number of milliseconds"),
  DATABASE_PARALLEL_WORKERS: whole(0, 0),
  DATABASE_SENTINEL: onOff("on"),
  // Sessions and sign-in
  NEXTAUTH_SECRET: z.string().optional(),
  NEXTAUTH_URL: optional(z.string().regex(/^https?:\/\/[^/]+\/?$/, "must be the console's public origin, e.g. https://console.example.com")),
  LOGIN_MAX_FAILURES: whole(1, 5),
  LOGIN_MAX_FAILURES_PER_IP: whole(1, 30),
  LOGIN_WINDOW_MINUTES: whole(1, 15, "a whole number of minutes"),
  REQUIRE_TWO_FACTOR: optional(z.enum(["off", "admins", "everyone"], { message: "must be off, admins or everyone" })).transform((v) => v ?? "off"),
  PASSWORD_SIGN_IN: onOff("on"),
  // Single sign-on (lib/auth/sso.ts; docs/decisions/0030-sign-in-two-factor-and-sso.md): on when the issuer, id and secret are set.
  OIDC_ISSUER: optional(z.string().refine(isIssuer, "must be the identity provider's issuer URL, https:// (http:// only on this machine), e.g. https://sso.example.com/realms/staff")),
  OIDC_CLIENT_ID: optional(z.string()),
  OIDC_CLIENT_SECRET: optional(z.string()),
  OIDC_NAME: optional(z.string().max(60, "must be at most 60 characters")).transform((name) => name ?? "Single sign-on"),
  OIDC_GROUPS_CLAIM: optional(z.string().regex(/^[A-Za-z0-9_:./-]{1,100}$/, "must be a claim name, e.g. groups")).transform((name) => name ?? "groups"),
  OIDC_ADMIN_GROUPS: groupList,
  OIDC_STAFF_GROUPS: groupList,
  OIDC_BRANCH_GROUP_PREFIX: optional(z.string().max(100, "must be at most 100 characters")),
  // The HTTP server
  HOST: optional(z.string()),
  PORT: whole(1, 3000, "a port number").refine((n) => n < 65536, "must be a port number (1–65535)"),
  /** Server processes sharing PORT (lib/server/cluster.ts); unset: the cores on PostgreSQL, 1 on the embedded database. */
  WEB_CONCURRENCY: wholeOrUnset(1),
  // A stop (SIGTERM): how long requests and jobs in flight get to finish, and how long the web
  // instance first goes on serving while its readiness answers 503 (lib/server/stopping.ts).
  SHUTDOWN_TIMEOUT_SECONDS: whole(1, 30, "a whole number of seconds"),
  SHUTDOWN_NOTICE_SECONDS: whole(0, 0, "a whole number of seconds"),
  COMPRESS: onOff("off"), // Next's own gzip; off: the reverse proxy compresses (docs/decisions/0039-compression.md)
  TRUST_PROXY: optional(
    z
      .string()
      .regex(
        /^\d{1,2}$/,
        "must be the number of reverse proxies in front of the console (e.g. 1), or unset when clients connect directly; " +
          "`true` is no longer accepted, as it let the client choose its own address",
      )
      .transform(Number),
  ).transform((n) => n ?? 0),
  HEALTH_TOKEN: optional(z.string()),
  // Operating it: logs and metrics (lib/telemetry)
  LOG_LEVEL: logLevelSetting,
  METRICS_TOKEN: optional(z.string()),
  // The separate job worker's own /metrics listener (scripts/worker.ts); 0 or unset: none.
  METRICS_PORT: whole(0, 0, "a port number").refine((n) => n < 65536, "must be a port number (1–65535)"),
  TOKEN_REQUESTS_PER_MINUTE: whole(1, 120),
  HEAVY_REQUESTS_PER_USER: whole(1, 2),
  HEAVY_REQUESTS_QUEUE: whole(0, 8),
  // Display
  CONSOLE_TIME_ZONE: timeZone,
  // The language of a user who chose none and whose browser asks for none the console speaks (docs/decisions/0048-languages.md).
  // Translators and tests: a browser asking for en-XA reads English accented and lengthened (lib/i18n/pseudo.ts).
  PSEUDO_LOCALE: onOff("off"),
  DEFAULT_LOCALE: optional(z.enum(LOCALES, { message: `must be one of ${LOCALES.join(", ")}` })).transform((locale) => locale ?? "en"),
  // Saved views a user may keep per list (docs/decisions/0027-saved-views.md): every user's Views menu reads shared ones.
  VIEWS_PER_USER: whole(1, 50),
  // Files (exports; lib/storage): a local folder, or an S3-compatible bucket
  STORAGE_DIR: optional(z.string()).transform((dir) => path.resolve(/*turbopackIgnore: true*/ dir ?? ".data")),
  STORAGE_URL: optional(z.string().transform(parseStorageUrl)),
  S3_ENDPOINT: optional(
    z.string().refine((url) => /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(url), "must be the storage's URL, e.g. https://s3.example.com or http://10.0.0.5:9000"),
  ),
  S3_REGION: optional(z.string().regex(/^[a-z0-9-]{1,40}$/, "must be a region name, e.g. eu-west-1")).transform((r) => r ?? "us-east-1"),
  S3_FORCE_PATH_STYLE: optional(z.enum(["on", "off", "true", "false"], { message: "must be on or off" })).transform((v) =>
    v === undefined ? undefined : v === "on" || v === "true",
  ),
  // Read by the AWS SDK itself; checked here so half a pair stops the start.
  AWS_ACCESS_KEY_ID: optional(z.string()),
  AWS_SECRET_ACCESS_KEY: optional(z.string()),
  AWS_SESSION_TOKEN: optional(z.string()),
  // Read by Next itself; shared by every instance (docs/decisions/0012-many-machines.md).
  NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: optional(
    z.string().refine(isActionsKey, "must be the base64 of 16, 24 or 32 random bytes (make one with `openssl rand -base64 32`)"),
  ),
  // Bulk changes of subscribers
  BULK_INLINE_MAX: whole(1, 2_000),
  BULK_BATCH_SIZE: whole(1, 2_000),
  // The trash: days a deleted subscriber or branch (and a bulk change's undo) is kept before the clean-up erases it.
  TRASH_RETENTION_DAYS: whole(1, 30, "a whole number of days"),
  // Retention: subscribers whose travel date is this many days past (unset: never) and that nobody changed
  // for RETENTION_UNCHANGED_DAYS are erased by the scheduled clean-up (lib/people/retention.ts).
  RETENTION_ERASE_AFTER_DAYS: wholeOrUnset(1, "a whole number of days"),
  RETENTION_UNCHANGED_DAYS: whole(0, 30, "a whole number of days"),
  // Imports of subscribers' sheets
  IMPORT_MAX_MB: whole(1, 100),
  IMPORT_XLSX_MAX_UNPACKED_MB: whole(1, 1_000),
  IMPORT_XLSX_MAX_SHARED_STRINGS: whole(1, 1_000_000),
  IMPORT_XLSX_MAX_SHARED_STRINGS_MB: whole(1, 50),
  IMPORT_BATCH_SIZE: whole(1, 1_000),
  IMPORT_LOCK_WAIT_MS: whole(1, 3_000),
  IMPORT_PREVIEW_QUOTA_MB: whole(1, 300),
  IMPORT_PREVIEW_RETENTION_HOURS: whole(1, 2, "a whole number of hours"),
  // Background jobs (exports, imports, bulk changes; lib/jobs)
  JOB_WORKER: onOff("on"),
  // A user's jobs queued or running, all kinds together; a worker runs more at once than one user may hold (docs/decisions/0022-jobs-fair-per-user.md).
  JOBS_PER_USER: whole(1, 2),
  JOB_CONCURRENCY: whole(1, 3),
  // Exports: rows per keyset batch (one COPY each); memory does not grow with it.
  EXPORT_BATCH_SIZE: whole(1, 20_000),
  // Retries after a failed attempt (a crash counts once the job expires); an attempt runs at most JOB_EXPIRE_SECONDS.
  JOB_RETRY_LIMIT: whole(0, 2),
  JOB_RETRY_DELAY_SECONDS: whole(0, 5),
  JOB_EXPIRE_SECONDS: whole(1, 600),
  JOB_POLL_SECONDS: whole(1, 2),
  JOB_MAINTENANCE_SECONDS: whole(1, 60),
  EXPORT_RETENTION_HOURS: whole(1, 24 * 7),
  JOB_PURGE_CRON: optional(z.string().regex(/^\S+( \S+){4,5}$/, "must be a cron expression, e.g. */15 * * * *")).transform((c) => c ?? "*/15 * * * *"),
  // Unset: SHUTDOWN_TIMEOUT_SECONDS (jobStopSeconds).
  JOB_STOP_TIMEOUT_SECONDS: wholeOrUnset(1),
  // Webhooks (lib/webhooks, docs/decisions/0045-webhooks.md)
  WEBHOOK_ALLOW_PRIVATE: flag,
  WEBHOOK_ALLOW_HTTP: flag,
  WEBHOOK_SECRET_OVERLAP_HOURS: whole(0, 24, "a whole number of hours"),
  // Deliveries in flight at once per worker process: a slow receiver holds one of them.
  WEBHOOK_CONCURRENCY: whole(1, 4),
  // An endpoint failing every attempt this long is turned off.
  WEBHOOK_DISABLE_AFTER_DAYS: whole(1, 3, "a whole number of days"),
  // The first retry's delay; the later ones grow from it to about a day in all (lib/webhooks/deliver.ts).
  WEBHOOK_RETRY_FIRST_SECONDS: whole(1, 30),
});

export type Config = z.output<typeof schema>;

/** `s3://bucket` or `s3://bucket/prefix/of/keys`: where the console keeps its files. */
type StorageUrl = { bucket: string; prefix: string };

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PREFIX_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,199}$/;

function parseStorageUrl(url: string, ctx: z.RefinementCtx): StorageUrl {
  const match = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(url);
  const prefix = (match?.[2] ?? "").replace(/\/+$/, "");
  if (!match || !BUCKET.test(match[1]!) || (prefix !== "" && !prefix.split("/").every((s) => PREFIX_SEGMENT.test(s)))) {
    ctx.addIssue({
      code: "custom",
      message: "must be s3://bucket or s3://bucket/prefix (a bucket name of 3–63 lowercase letters, digits, dots and hyphens; a prefix of letters, digits, _, - and . separated by /)",
    });
    return z.NEVER;
  }
  return { bucket: match[1]!, prefix };
}

/** AES-GCM takes keys of 128, 192 or 256 bits; Next reads this one as base64. */
function isActionsKey(value: string): boolean {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return false;
  const bytes = Buffer.from(value, "base64");
  return [16, 24, 32].includes(bytes.length) && bytes.toString("base64") === value;
}

const setIn = (env: NodeJS.ProcessEnv, name: string) => (env[name] ?? "").trim() !== "";

/** Storage settings that contradict each other: refused, so files never go somewhere unnoticed. */
function storageProblems(env: NodeJS.ProcessEnv): string[] {
  const problems: string[] = [];
  const bucket = setIn(env, "STORAGE_URL");
  if (bucket && setIn(env, "STORAGE_DIR")) {
    problems.push("STORAGE_DIR and STORAGE_URL are both set: files go to a folder (STORAGE_DIR) or to a bucket (STORAGE_URL), set one.");
  }
  const s3Only = ["S3_ENDPOINT", "S3_REGION", "S3_FORCE_PATH_STYLE"].filter((name) => setIn(env, name));
  if (!bucket && s3Only.length > 0) {
    problems.push(`${s3Only.join(", ")} ${s3Only.length === 1 ? "is" : "are"} set but STORAGE_URL is not: files would stay in the local folder. Set STORAGE_URL=s3://bucket/prefix.`);
  }
  if (setIn(env, "AWS_ACCESS_KEY_ID") !== setIn(env, "AWS_SECRET_ACCESS_KEY")) {
    problems.push("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together: set both, or neither (then the AWS SDK looks for a profile, a web identity or the instance's role).");
  }
  return problems;
}

/** Web processes the embedded database or the pool cannot serve: refused at start. */
function processProblems(parsed: Config | null): string[] {
  const processes = parsed?.WEB_CONCURRENCY;
  if (!parsed || processes === undefined || processes === 1) return [];
  if (!parsed.DATABASE_URL) {
    return [`WEB_CONCURRENCY is ${processes} but the embedded database (no DATABASE_URL) is opened by one process at a time: leave it unset or 1, or set DATABASE_URL.`];
  }
  if (parsed.DATABASE_POOL_SIZE < 2 * processes) {
    return [`WEB_CONCURRENCY is ${processes} but DATABASE_POOL_SIZE (${parsed.DATABASE_POOL_SIZE}) is the connections of all of them together, at least 2 each: raise DATABASE_POOL_SIZE to ${2 * processes} or more.`];
  }
  return [];
}

const OIDC_REQUIRED = ["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"] as const;

/** Single sign-on half set up, with no group to let anyone in, or the only way in turned off: refused at start. */
function signInProblems(env: NodeJS.ProcessEnv, parsed: Config | null): string[] {
  const given = OIDC_REQUIRED.filter((name) => setIn(env, name));
  const others = CONFIG_VARIABLES.filter((name) => name.startsWith("OIDC_") && !(OIDC_REQUIRED as readonly string[]).includes(name) && setIn(env, name));
  if (given.length === 0) {
    const problems = others.length ? [`${others.join(", ")} ${others.length === 1 ? "is" : "are"} set but single sign-on is not: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET too.`] : [];
    if (parsed && !parsed.PASSWORD_SIGN_IN) problems.push("PASSWORD_SIGN_IN is off but single sign-on is not set up (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET): nobody could sign in.");
    return problems;
  }
  if (given.length < OIDC_REQUIRED.length) {
    const missing = OIDC_REQUIRED.filter((name) => !given.includes(name));
    return [`Single sign-on needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together: ${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} not set.`];
  }
  if (parsed && parsed.OIDC_ADMIN_GROUPS.length === 0 && parsed.OIDC_STAFF_GROUPS.length === 0) {
    return ["Single sign-on is set up but neither OIDC_ADMIN_GROUPS nor OIDC_STAFF_GROUPS is: every sign-in would be refused. Name the groups that may sign in."];
  }
  return [];
}

/** Single sign-on's settings when it is on (its issuer, id and secret set), else null. */
/** How long a stopping worker lets its running jobs finish before handing them back. */
export function jobStopSeconds(settings: Pick<Config, "JOB_STOP_TIMEOUT_SECONDS" | "SHUTDOWN_TIMEOUT_SECONDS"> = config()): number {
  return settings.JOB_STOP_TIMEOUT_SECONDS ?? settings.SHUTDOWN_TIMEOUT_SECONDS;
}

export function singleSignOn(settings: Config = config()) {
  const { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret } = settings;
  if (!issuer || !clientId || !clientSecret) return null;
  return {
    issuer: issuer.replace(/\/+$/, ""),
    clientId,
    clientSecret,
    name: settings.OIDC_NAME,
    groupsClaim: settings.OIDC_GROUPS_CLAIM,
    adminGroups: settings.OIDC_ADMIN_GROUPS,
    staffGroups: settings.OIDC_STAFF_GROUPS,
    branchGroupPrefix: settings.OIDC_BRANCH_GROUP_PREFIX ?? null,
  };
}

export type SingleSignOn = NonNullable<ReturnType<typeof singleSignOn>>;

/** Every variable the console reads (docs/configuration.md's table lists exactly these). */
export const CONFIG_VARIABLES = Object.keys(schema.shape) as (keyof Config)[];

/** Settings renamed: the old name is still read when the new one is unset, with a warning once. */
const RENAMED = {
  EXPORT_WORKER: "JOB_WORKER",
  // The queue's settings were named after exports, its first kind of job; they govern every job.
  EXPORT_RETRY_LIMIT: "JOB_RETRY_LIMIT",
  EXPORT_RETRY_DELAY_SECONDS: "JOB_RETRY_DELAY_SECONDS",
  EXPORT_JOB_EXPIRE_SECONDS: "JOB_EXPIRE_SECONDS",
  EXPORT_POLL_SECONDS: "JOB_POLL_SECONDS",
  EXPORT_MAINTENANCE_SECONDS: "JOB_MAINTENANCE_SECONDS",
  EXPORT_PURGE_CRON: "JOB_PURGE_CRON",
  EXPORT_STOP_TIMEOUT_SECONDS: "JOB_STOP_TIMEOUT_SECONDS",
} as const;
const warnedRenamed = processWide("config.renamed", () => new Set<string>());

function withRenamed(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  let result = env;
  for (const [old, name] of Object.entries(RENAMED)) {
    if (!setIn(env, old)) continue;
    const used = !setIn(env, name);
    if (used) result = { ...result, [name]: env[old] };
    if (!warnedRenamed.has(old)) {
      warnedRenamed.add(old);
      // Not the logger (lib/telemetry/log.ts): it reads its level from this module.
      console.warn(used ? `${old} is now called ${name}: set ${name} instead (${old} is still read).` : `${old} is now called ${name}: ${old} is ignored, ${name} is set.`);
    }
  }
  return result;
}

/** A variable as the error names it: the old name when the value came from there. */
function label(given: NodeJS.ProcessEnv, name: string): string {
  const old = Object.entries(RENAMED).find(([o, n]) => n === name && setIn(given, o) && !setIn(given, n))?.[0];
  return old ? `${old} (now ${name})` : name;
}

/** The settings of `env`; a ConfigError naming every bad variable. Production needs a good secret. */
export function parseConfig(given: NodeJS.ProcessEnv = process.env): Config {
  const env = withRenamed(given);
  const parsed = schema.safeParse(env);
  const problems = parsed.success ? [] : parsed.error.issues.map((i) => `${label(given, i.path.join("."))} ${i.message}.`);
  const secret = env.NEXTAUTH_SECRET;
  const secretIssue = secretProblem(secret);
  // Only a serving production process needs a secret (`next build` serves nobody).
  const serving = env.NODE_ENV === "production" && env.NEXT_PHASE !== "phase-production-build";
  if (secretIssue && (serving || secret !== undefined)) problems.push(`NEXTAUTH_SECRET ${secretIssue}. ${SECRET_HELP}`);
  // A replaced setting is refused rather than ignored, so files do not move unnoticed.
  if (env.EXPORT_DIR !== undefined && env.EXPORT_DIR.trim() !== "") {
    problems.push("EXPORT_DIR was replaced by STORAGE_DIR: export files now live in $STORAGE_DIR/exports (STORAGE_DIR=.data keeps them in .data/exports).");
  }
  problems.push(...storageProblems(env));
  problems.push(...signInProblems(env, parsed.success ? parsed.data : null));
  if (parsed.success && parsed.data.JOB_CONCURRENCY <= parsed.data.JOBS_PER_USER) {
    problems.push(
      `JOB_CONCURRENCY (${parsed.data.JOB_CONCURRENCY}) must be more than JOBS_PER_USER (${parsed.data.JOBS_PER_USER}): ` +
        "otherwise one user's jobs can hold every slot of a worker and the others wait for them (docs/decisions/0022-jobs-fair-per-user.md).",
    );
  }
  problems.push(...processProblems(parsed.success ? parsed.data : null));
  if (problems.length || !parsed.success) throw new ConfigError(problems.join("\n"));
  return parsed.data;
}


let cached: { key: string; value: Config } | undefined;
// Process-wide: every layer of the build has its own copy of this module (lib/process-wide.ts).
const served = processWide("config.served", () => ({ value: undefined as Config | undefined }));

/** Parsed once per distinct environment (tests change it); frozen once the server has started (freezeConfig). */
export function config(): Config {
  if (served.value) return served.value;
  const env = process.env;
  let key = "";
  for (const name of CONFIG_VARIABLES) key += `${env[name] ?? "\u0000"}\u0001`;
  for (const name of Object.keys(RENAMED)) key += `${env[name] ?? "\u0000"}\u0001`;
  key += `${env.NODE_ENV ?? ""}\u0001${env.NEXT_PHASE ?? ""}`;
  if (cached?.key !== key) cached = { key, value: parseConfig(env) };
  return cached.value;
}

/** Freezes a server's settings for its lifetime: called once Next has loaded its env files. */
export function freezeConfig(): Config {
  served.value = undefined;
  served.value = config();
  return served.value;
}
