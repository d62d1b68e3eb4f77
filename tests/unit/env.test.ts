import { describe, expect, it } from "vitest";
import { ConfigError, secretProblem, serverEnv } from "@/lib/env";

const GOOD_SECRET = "k3yb0ard-cat-0123456789abcdefghijklmnop";

describe("serverEnv", () => {
  it("refuses a guessable session secret in production, and says how to make one", () => {
    for (const secret of ["changeme", "x", " ", " ".repeat(40), "\t\n".repeat(20), "0123456789abcdef0123456789abcde"]) {
      expect(() => serverEnv({ NODE_ENV: "production", NEXTAUTH_SECRET: secret })).toThrow(ConfigError);
    }
    expect(() => serverEnv({ NODE_ENV: "production" })).toThrow(/NEXTAUTH_SECRET is not set.*openssl rand -base64 32/s);
    expect(() => serverEnv({ NODE_ENV: "production", NEXTAUTH_SECRET: "changeme" })).toThrow(/shorter than 32 bytes.*secret manager/s);
    expect(serverEnv({ NODE_ENV: "production", NEXTAUTH_SECRET: GOOD_SECRET }).NEXTAUTH_SECRET).toBe(GOOD_SECRET);
  });

  it("lets development run without a secret, never with a weak one", () => {
    expect(serverEnv({ NODE_ENV: "development" }).NEXTAUTH_SECRET).toBeUndefined();
    expect(() => serverEnv({ NODE_ENV: "development", NEXTAUTH_SECRET: "short" })).toThrow(/NEXTAUTH_SECRET/);
  });

  it("counts bytes, not characters", () => {
    expect(secretProblem("é".repeat(16))).toBeNull(); // 32 bytes in UTF-8
    expect(secretProblem("é".repeat(15))).toMatch(/shorter/);
  });

  it("takes TRUST_PROXY as a number of proxies, and refuses `true` with the reason", () => {
    const env = (TRUST_PROXY?: string) => serverEnv({ NODE_ENV: "test", NEXTAUTH_SECRET: GOOD_SECRET, TRUST_PROXY });
    expect(env().TRUST_PROXY).toBe(0);
    expect(env("1").TRUST_PROXY).toBe(1);
    expect(env("2").TRUST_PROXY).toBe(2);
    expect(() => env("true")).toThrow(/TRUST_PROXY .*number of reverse proxies.*`true` is no longer accepted/s);
    expect(() => env("-1")).toThrow(/TRUST_PROXY/);
  });

  it("names every bad variable at once", () => {
    const error = (() => {
      try {
        serverEnv({ NODE_ENV: "production", NEXTAUTH_SECRET: "x", PORT: "http", NEXTAUTH_URL: "console" });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.message).toMatch(/PORT/);
    expect(error?.message).toMatch(/NEXTAUTH_URL/);
    expect(error?.message).toMatch(/NEXTAUTH_SECRET/);
  });
});
