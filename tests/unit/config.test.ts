import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { CONFIG_VARIABLES, ConfigError, parseConfig, secretProblem } from "@/lib/config";
import { TOOL_VARIABLES, ToolEnvError, toolEnv } from "@/tools/env";

const GOOD_SECRET = "k3yb0ard-cat-0123456789abcdefghijklmnop";

describe("parseConfig", () => {
  it("refuses a guessable session secret in production, and says how to make one", () => {
    for (const secret of ["changeme", "x", " ", " ".repeat(40), "\t\n".repeat(20), "0123456789abcdef0123456789abcde"]) {
      expect(() => parseConfig({ NODE_ENV: "production", NEXTAUTH_SECRET: secret })).toThrow(ConfigError);
    }
    expect(() => parseConfig({ NODE_ENV: "production" })).toThrow(/NEXTAUTH_SECRET is not set.*openssl rand -base64 32/s);
    expect(() => parseConfig({ NODE_ENV: "production", NEXTAUTH_SECRET: "changeme" })).toThrow(/shorter than 32 bytes.*secret manager/s);
    expect(parseConfig({ NODE_ENV: "production", NEXTAUTH_SECRET: GOOD_SECRET }).NEXTAUTH_SECRET).toBe(GOOD_SECRET);
  });

  it("lets development run without a secret, never with a weak one", () => {
    expect(parseConfig({ NODE_ENV: "development" }).NEXTAUTH_SECRET).toBeUndefined();
    expect(() => parseConfig({ NODE_ENV: "development", NEXTAUTH_SECRET: "short" })).toThrow(/NEXTAUTH_SECRET/);
  });

  it("counts bytes, not characters", () => {
    expect(secretProblem("é".repeat(16))).toBeNull(); // 32 bytes in UTF-8
    expect(secretProblem("é".repeat(15))).toMatch(/shorter/);
  });

  it("takes TRUST_PROXY as a number of proxies, and refuses `true` with the reason", () => {
    const env = (TRUST_PROXY?: string) => parseConfig({ NODE_ENV: "test", NEXTAUTH_SECRET: GOOD_SECRET, TRUST_PROXY });
    expect(env().TRUST_PROXY).toBe(0);
    expect(env("1").TRUST_PROXY).toBe(1);
    expect(env("2").TRUST_PROXY).toBe(2);
    expect(() => env("true")).toThrow(/TRUST_PROXY .*number of reverse proxies.*`true` is no longer accepted/s);
    expect(() => env("-1")).toThrow(/TRUST_PROXY/);
  });

  it("refuses bad values of every kind, naming the variable", () => {
    const base = { NODE_ENV: "test", NEXTAUTH_SECRET: GOOD_SECRET } as const;
    for (const [name, value] of [
      ["DATABASE_URL", "mysql://x"],
      ["DATABASE_POOL_SIZE", "0"],
      ["DATABASE_STATEMENT_TIMEOUT_MS", "5s"],
      ["CONSOLE_TIME_ZONE", "Mars/Olympus"],
      ["JOB_WORKER", "maybe"],
      ["JOBS_PER_USER", "0"],
      ["EXPORT_BATCH_SIZE", "-1"],
      ["JOB_PURGE_CRON", "often"],
      ["LOGIN_WINDOW_MINUTES", "1.5"],
      ["PORT", "70000"],
    ] as const) {
      expect(() => parseConfig({ ...base, [name]: value }), name).toThrow(new RegExp(`^${name} `, "m"));
    }
    const defaults = parseConfig(base);
    expect(defaults).toMatchObject({ DATABASE_POOL_SIZE: 10, JOB_WORKER: true, CONSOLE_TIME_ZONE: "UTC", JOB_PURGE_CRON: "*/15 * * * *", TRUST_PROXY: 0 });
    expect(parseConfig({ ...base, JOB_WORKER: "off", CONSOLE_TIME_ZONE: " Europe/Paris " })).toMatchObject({ JOB_WORKER: false, CONSOLE_TIME_ZONE: "Europe/Paris" });
  });

  it("refuses several web processes on the embedded database, or with fewer than two connections each", () => {
    const base = { NODE_ENV: "test", NEXTAUTH_SECRET: GOOD_SECRET } as const;
    const postgres = { ...base, DATABASE_URL: "postgres://postgres@127.0.0.1:5432/console" } as const;
    expect(parseConfig(base).WEB_CONCURRENCY).toBeUndefined();
    expect(parseConfig({ ...base, WEB_CONCURRENCY: "1" }).WEB_CONCURRENCY).toBe(1);
    expect(() => parseConfig({ ...base, WEB_CONCURRENCY: "2" })).toThrow(/^WEB_CONCURRENCY is 2 but the embedded database .*one process at a time/m);
    expect(parseConfig({ ...postgres, WEB_CONCURRENCY: "4" }).WEB_CONCURRENCY).toBe(4);
    expect(() => parseConfig({ ...postgres, WEB_CONCURRENCY: "6" })).toThrow(/^WEB_CONCURRENCY is 6 but DATABASE_POOL_SIZE \(10\).*raise DATABASE_POOL_SIZE to 12/m);
    expect(parseConfig({ ...postgres, WEB_CONCURRENCY: "6", DATABASE_POOL_SIZE: "12" }).WEB_CONCURRENCY).toBe(6);
    for (const value of ["0", "two", "1.5", "-1"]) expect(() => parseConfig({ ...base, WEB_CONCURRENCY: value }), value).toThrow(/^WEB_CONCURRENCY must be a whole number, at least 1/m);
  });

  it("still reads the job settings' EXPORT_* names when the JOB_* ones are unset, warning once each", () => {
    const base = { NODE_ENV: "test", NEXTAUTH_SECRET: GOOD_SECRET } as const;
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const old = { EXPORT_POLL_SECONDS: "7", EXPORT_RETRY_LIMIT: "4", EXPORT_RETRY_DELAY_SECONDS: "9", EXPORT_JOB_EXPIRE_SECONDS: "30", EXPORT_MAINTENANCE_SECONDS: "90", EXPORT_PURGE_CRON: "0 * * * *", EXPORT_STOP_TIMEOUT_SECONDS: "3" };
      const expected = { JOB_POLL_SECONDS: 7, JOB_RETRY_LIMIT: 4, JOB_RETRY_DELAY_SECONDS: 9, JOB_EXPIRE_SECONDS: 30, JOB_MAINTENANCE_SECONDS: 90, JOB_PURGE_CRON: "0 * * * *", JOB_STOP_TIMEOUT_SECONDS: 3 };
      expect(parseConfig({ ...base, ...old })).toMatchObject(expected);
      expect(parseConfig({ ...base, ...old })).toMatchObject(expected);
      expect(parseConfig({ ...base, ...old, JOB_POLL_SECONDS: "1" }).JOB_POLL_SECONDS).toBe(1);
      const said = warn.mock.calls.map((call) => String(call[0]));
      for (const name of Object.keys(old)) expect(said.filter((line) => line.startsWith(`${name} is now called JOB_`)), name).toHaveLength(1);
      expect(() => parseConfig({ ...base, EXPORT_POLL_SECONDS: "soon" })).toThrow(/^EXPORT_POLL_SECONDS \(now JOB_POLL_SECONDS\) must be a whole number/m);
    } finally {
      warn.mockRestore();
    }
  });

  it("still reads EXPORT_WORKER when JOB_WORKER is unset, warning once that it was renamed", () => {
    const base = { NODE_ENV: "test", NEXTAUTH_SECRET: GOOD_SECRET } as const;
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      expect(parseConfig({ ...base, EXPORT_WORKER: "off" }).JOB_WORKER).toBe(false);
      expect(parseConfig({ ...base, EXPORT_WORKER: "off" }).JOB_WORKER).toBe(false);
      expect(parseConfig({ ...base, EXPORT_WORKER: "off", JOB_WORKER: "on" }).JOB_WORKER).toBe(true);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0]![0]).toMatch(/EXPORT_WORKER is now called JOB_WORKER/);
      expect(() => parseConfig({ ...base, EXPORT_WORKER: "maybe" })).toThrow(/^EXPORT_WORKER \(now JOB_WORKER\) must be on or off/m);
    } finally {
      warn.mockRestore();
    }
  });

  it("refuses a worker that runs no more jobs at once than one user may have", () => {
    const base = { NODE_ENV: "test", NEXTAUTH_SECRET: GOOD_SECRET } as const;
    expect(parseConfig(base)).toMatchObject({ JOBS_PER_USER: 2, JOB_CONCURRENCY: 3 });
    expect(parseConfig({ ...base, JOBS_PER_USER: "4", JOB_CONCURRENCY: "5" })).toMatchObject({ JOBS_PER_USER: 4, JOB_CONCURRENCY: 5 });
    expect(() => parseConfig({ ...base, JOBS_PER_USER: "3" })).toThrow(/^JOB_CONCURRENCY \(3\) must be more than JOBS_PER_USER \(3\)/m);
  });

  it("takes a bucket as STORAGE_URL, and refuses settings that would leave files somewhere unnoticed", () => {
    const base = { NODE_ENV: "test", NEXTAUTH_SECRET: GOOD_SECRET } as const;
    expect(parseConfig(base).STORAGE_URL).toBeUndefined();
    expect(parseConfig({ ...base, STORAGE_URL: "s3://console-files/prod/eu/" }).STORAGE_URL).toEqual({ bucket: "console-files", prefix: "prod/eu" });
    expect(parseConfig({ ...base, STORAGE_URL: "s3://console-files" }).STORAGE_URL).toEqual({ bucket: "console-files", prefix: "" });
    const s3 = parseConfig({ ...base, STORAGE_URL: "s3://b12", S3_ENDPOINT: "http://10.0.0.5:9000", S3_REGION: "eu-west-1", S3_FORCE_PATH_STYLE: "off" });
    expect(s3).toMatchObject({ S3_ENDPOINT: "http://10.0.0.5:9000", S3_REGION: "eu-west-1", S3_FORCE_PATH_STYLE: false });
    const plain = parseConfig({ ...base, STORAGE_URL: "s3://b12" });
    expect(plain.S3_REGION).toBe("us-east-1");
    expect(plain.S3_FORCE_PATH_STYLE).toBeUndefined(); // decided by lib/storage from S3_ENDPOINT
    for (const [name, value] of [
      ["STORAGE_URL", "https://bucket.s3.amazonaws.com"],
      ["STORAGE_URL", "s3://Upper_Case"],
      ["STORAGE_URL", "s3://bucket/../escape"],
      ["STORAGE_URL", "s3://bucket/a//b"],
      ["S3_ENDPOINT", "10.0.0.5:9000"],
      ["S3_REGION", "EU West"],
      ["S3_FORCE_PATH_STYLE", "yes please"],
      ["NEXT_SERVER_ACTIONS_ENCRYPTION_KEY", "not base64!"],
      ["NEXT_SERVER_ACTIONS_ENCRYPTION_KEY", Buffer.alloc(20).toString("base64")],
    ] as const) {
      expect(() => parseConfig({ ...base, STORAGE_URL: "s3://bucket", [name]: value }), `${name}=${value}`).toThrow(new RegExp(`^${name} `, "m"));
    }
    expect(() => parseConfig({ ...base, STORAGE_URL: "s3://bucket", STORAGE_DIR: "/srv/files" })).toThrow(/STORAGE_DIR and STORAGE_URL are both set/);
    expect(() => parseConfig({ ...base, S3_ENDPOINT: "http://127.0.0.1:9000" })).toThrow(/S3_ENDPOINT is set but STORAGE_URL is not/);
    expect(() => parseConfig({ ...base, STORAGE_URL: "s3://bucket", AWS_ACCESS_KEY_ID: "AKIA" })).toThrow(/AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together/);
    expect(parseConfig({ ...base, STORAGE_URL: "s3://bucket", AWS_ACCESS_KEY_ID: "AKIA", AWS_SECRET_ACCESS_KEY: "s" }).AWS_ACCESS_KEY_ID).toBe("AKIA");
  });

  it("takes a server actions key of 16, 24 or 32 bytes in base64", () => {
    const base = { NODE_ENV: "production", NEXTAUTH_SECRET: GOOD_SECRET } as const;
    for (const bytes of [16, 24, 32]) {
      const key = Buffer.alloc(bytes, 9).toString("base64");
      expect(parseConfig({ ...base, NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: key }).NEXT_SERVER_ACTIONS_ENCRYPTION_KEY).toBe(key);
    }
    expect(() => parseConfig({ ...base, NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: "c2hvcnQ=" })).toThrow(/16, 24 or 32 random bytes.*openssl rand -base64 32/s);
  });

  it("names every bad variable at once", () => {
    const error = (() => {
      try {
        parseConfig({ NODE_ENV: "production", NEXTAUTH_SECRET: "x", PORT: "http", NEXTAUTH_URL: "console" });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.message).toMatch(/PORT/);
    expect(error?.message).toMatch(/NEXTAUTH_URL/);
    expect(error?.message).toMatch(/NEXTAUTH_SECRET/);
  });
});

/** The variables named in the first column of docs/configuration.md's tables under `heading`, up to the next heading. */
function documentedUnder(heading: string): string[] {
  const doc = fs.readFileSync(path.join(process.cwd(), "docs/configuration.md"), "utf8");
  const start = doc.indexOf(`\n${heading}\n`);
  expect(start, `docs/configuration.md has no "${heading}" section`).toBeGreaterThan(-1);
  const next = doc.indexOf("\n## ", start + heading.length + 1);
  const section = doc.slice(start, next === -1 ? undefined : next);
  const documented = new Set<string>();
  for (const line of section.split("\n")) {
    const first = /^\| ([^|]+) \|/.exec(line)?.[1] ?? "";
    for (const name of first.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) documented.add(name[1]!);
  }
  return [...documented].sort();
}

describe("docs/configuration.md", () => {
  it("lists exactly the variables lib/config.ts reads", () => {
    expect(documentedUnder("## The console")).toEqual([...CONFIG_VARIABLES].sort());
  });

  it("lists the tests' and tools' variables apart, exactly those tools/env.ts reads", () => {
    expect(documentedUnder("## Tests and tools only")).toEqual([...TOOL_VARIABLES].sort());
    expect(TOOL_VARIABLES.filter((name) => (CONFIG_VARIABLES as string[]).includes(name))).toEqual([]);
  });
});

describe("toolEnv", () => {
  it("refuses a bad value, naming the variable, instead of running on NaN", () => {
    for (const [name, value] of [
      ["BENCH_RUNS", "abc"],
      ["BENCH_RUNS", "0"],
      ["BENCH_IMPORT_RUNS", "2.5"],
      ["BENCH_IMPORT_ONLY", "csv"],
      ["BENCH_REUSE_DB", "x; DROP DATABASE y"],
      ["BENCH_DATABASE_URL", "localhost:5432"],
      ["LOAD_CONNECTIONS", "abc"],
      ["LOAD_DURATION", "-5"],
      ["LOAD_TARGETS", "branches"],
      ["LOAD_DATABASE_URL", "mysql://x"],
      ["TEST_DATABASE_URL", "127.0.0.1"],
      ["E2E_PORT", "70000"],
      ["BUILD_ID", "../x"],
    ] as const) {
      expect(() => toolEnv([name], { [name]: value }), `${name}=${value}`).toThrow(ToolEnvError);
      expect(() => toolEnv([name], { [name]: value }), `${name}=${value}`).toThrow(new RegExp(`^${name} must `));
    }
  });

  it("gives the documented defaults, and reads only what a tool asks for", () => {
    expect(toolEnv(["BENCH_RUNS", "BENCH_IMPORT_RUNS", "BENCH_KEEP_DB", "LOAD_CONNECTIONS", "LOAD_WARMUP_REQUESTS", "PG_BIN", "E2E_PORT", "CI"], {})).toEqual({
      BENCH_RUNS: 3,
      BENCH_IMPORT_RUNS: 2,
      BENCH_KEEP_DB: false,
      LOAD_CONNECTIONS: 50,
      LOAD_WARMUP_REQUESTS: 3000,
      PG_BIN: "/usr/lib/postgresql/15/bin",
      E2E_PORT: 3100,
      CI: false,
    });
    expect(toolEnv(["BENCH_RUNS", "BENCH_KEEP_DB", "LOAD_TARGETS", "LOAD_DURATION"], { BENCH_RUNS: " 5 ", BENCH_KEEP_DB: "1", LOAD_TARGETS: "/branches, /api/v1/branches", LOAD_DURATION: "0.5" }))
      .toEqual({ BENCH_RUNS: 5, BENCH_KEEP_DB: true, LOAD_TARGETS: ["/branches", "/api/v1/branches"], LOAD_DURATION: 0.5 });
    expect(toolEnv(["BENCH_KEEP_DB"], { BENCH_KEEP_DB: "0" }).BENCH_KEEP_DB).toBe(false);
    expect(toolEnv(["BENCH_RUNS"], { LOAD_CONNECTIONS: "abc" })).toEqual({ BENCH_RUNS: 3 }); // another tool's bad value stops no one else
  });
});

describe("next build", () => {
  it("loads the app's modules without a secret: only a serving production process needs one", () => {
    expect(parseConfig({ NODE_ENV: "production", NEXT_PHASE: "phase-production-build" }).NEXTAUTH_SECRET).toBeUndefined();
    expect(() => parseConfig({ NODE_ENV: "production", NEXT_PHASE: "phase-production-server" })).toThrow(/NEXTAUTH_SECRET is not set/);
  });
});
