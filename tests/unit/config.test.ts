import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONFIG_VARIABLES, ConfigError, parseConfig, secretProblem } from "@/lib/config";

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
      ["EXPORT_WORKER", "maybe"],
      ["EXPORT_BATCH_SIZE", "-1"],
      ["EXPORT_PURGE_CRON", "often"],
      ["LOGIN_WINDOW_MINUTES", "1.5"],
      ["PORT", "70000"],
    ] as const) {
      expect(() => parseConfig({ ...base, [name]: value }), name).toThrow(new RegExp(`^${name} `, "m"));
    }
    const defaults = parseConfig(base);
    expect(defaults).toMatchObject({ DATABASE_POOL_SIZE: 10, EXPORT_WORKER: true, CONSOLE_TIME_ZONE: "UTC", EXPORT_PURGE_CRON: "*/15 * * * *", TRUST_PROXY: 0 });
    expect(parseConfig({ ...base, EXPORT_WORKER: "off", CONSOLE_TIME_ZONE: " Europe/Paris " })).toMatchObject({ EXPORT_WORKER: false, CONSOLE_TIME_ZONE: "Europe/Paris" });
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

describe("the README's configuration table", () => {
  it("lists exactly the variables lib/config.ts reads", () => {
    const readme = fs.readFileSync(path.join(process.cwd(), "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## Configuration"), readme.indexOf("Tests and tools only:"));
    const documented = new Set<string>();
    for (const line of section.split("\n")) {
      const first = /^\| ([^|]+) \|/.exec(line)?.[1] ?? "";
      for (const name of first.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) documented.add(name[1]!);
    }
    expect([...documented].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });
});

describe("next build", () => {
  it("loads the app's modules without a secret: only a serving production process needs one", () => {
    expect(parseConfig({ NODE_ENV: "production", NEXT_PHASE: "phase-production-build" }).NEXTAUTH_SECRET).toBeUndefined();
    expect(() => parseConfig({ NODE_ENV: "production", NEXT_PHASE: "phase-production-server" })).toThrow(/NEXTAUTH_SECRET is not set/);
  });
});
