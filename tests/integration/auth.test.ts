import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { authOptions } from "@/lib/auth/options";
import { hashPassword } from "@/lib/auth/password";
import { purgeLoginAttempts } from "@/lib/auth/login-attempts";
import { duringSignIn } from "@/lib/auth/sign-in";
import { throttleSettings, throttleWait } from "@/lib/auth/throttle";
import type { Database } from "@/lib/db/client";
import { CLIENT_ADDRESS_HEADER } from "@/lib/server/client-address";
import { testDatabase, testDbKinds } from "../helpers/db";

// The credentials check (next-auth's authorize) and the pause after repeated failures, which is
// decided inside it on the very email it checks. The HTTP answers (429 with Retry-After under
// every body shape and path next-auth accepts) are covered against the built server in
// tests/http/sign-in.test.ts.

type Authorize = (credentials: Record<string, string>, req: { headers: Record<string, string> }) => Promise<unknown>;
const authorize = (authOptions.providers[0] as unknown as { options: { authorize: Authorize } }).options.authorize;

/** One sign-in as next-auth makes it: authorize() with the credentials it read, from `ip` as server.ts decided it. */
async function attempt(email: string, password: string, ip = "203.0.113.7", headers: Record<string, string> = {}) {
  const { result, retryAfter } = await duringSignIn(() => authorize({ email, password }, { headers: { [CLIENT_ADDRESS_HEADER]: ip, ...headers } }));
  if (retryAfter > 0) return "paused" as const;
  return result ? ("ok" as const) : ("refused" as const);
}

for (const kind of testDbKinds()) {
  describe(`sign-in and throttling on ${kind}`, () => {
    let database: Database;

    beforeAll(async () => {
      database = await testDatabase(kind);
      await database.prisma.user.createMany({
        data: [
          { email: "ada@example.com", name: "Ada", role: "admin", password_hash: await hashPassword("right-password") },
          { email: "ben@example.com", name: "Ben", role: "staff", password_hash: await hashPassword("bens-password") },
          { email: "off@example.com", name: "Off", role: "staff", active: false, password_hash: await hashPassword("right-password") },
        ],
      });
    });
    afterAll(async () => database?.close());
    beforeEach(async () => {
      await database.prisma.loginAttempt.deleteMany();
    });

    it("accepts only the right password of an active user, and audits both outcomes", async () => {
      expect(await attempt("ada@example.com", "wrong")).toBe("refused");
      expect(await attempt("  ADA@example.com ", "right-password")).toBe("ok");
      expect(await attempt("off@example.com", "right-password")).toBe("refused");
      const events = await database.prisma.auditEvent.findMany({ where: { actor_email: "ada@example.com" }, orderBy: { id: "asc" } });
      expect(events.map((e) => e.action).slice(-2)).toEqual(["auth.sign_in_failed", "auth.sign_in"]);
      expect(events.at(-1)).toMatchObject({ ip: "203.0.113.7", actor_id: expect.any(Number) });
    });

    it("pauses an account after repeated failures, inside authorize(): the right password no longer signs in; other accounts go on", async () => {
      const { perAccount } = throttleSettings();
      for (let i = 0; i < perAccount; i++) expect(await attempt("ada@example.com", `nope-${i}`)).toBe("refused");
      expect(await attempt("ada@example.com", "right-password")).toBe("paused");
      // The email as authorize() reads it (trimmed, any case), from another address too.
      expect(await attempt("  ADA@Example.com ", "right-password", "198.51.100.77")).toBe("paused");
      expect(await attempt("ben@example.com", "bens-password")).toBe("ok");
      expect(await database.prisma.auditEvent.count({ where: { action: "auth.locked", actor_email: "ada@example.com" } })).toBe(2);
      // A paused attempt is not a failure of its own: the pause does not grow with retries.
      expect(await database.prisma.loginAttempt.count({ where: { email: "ada@example.com" } })).toBe(perAccount);
    });

    it("gives tries sent at once no more password checks than tries sent one by one", async () => {
      const { perAccount } = throttleSettings();
      const burst = await Promise.all(Array.from({ length: perAccount * 3 }, (_, i) => attempt("ada@example.com", `burst-${i}`, `198.51.100.${i}`)));
      expect(burst.filter((r) => r === "refused")).toHaveLength(perAccount);
      expect(burst.filter((r) => r === "paused")).toHaveLength(perAccount * 2);
      expect(await attempt("ada@example.com", "right-password", "198.51.100.200")).toBe("paused");
      expect(await database.prisma.loginAttempt.count({ where: { email: "ada@example.com" } })).toBe(perAccount);
    });

    it("treats an unknown email exactly like a known one", async () => {
      const { perAccount } = throttleSettings();
      for (let i = 0; i < perAccount; i++) {
        expect(await attempt("ben@example.com", "wrong", "198.51.100.1")).toBe("refused");
        expect(await attempt("nobody@example.com", "wrong", "198.51.100.2")).toBe("refused");
      }
      expect(await attempt("ben@example.com", "bens-password", "198.51.100.1")).toBe("paused");
      expect(await attempt("nobody@example.com", "whatever", "198.51.100.2")).toBe("paused");
    });

    it("pauses an address that tries many accounts, not other addresses", async () => {
      const { perIp } = throttleSettings();
      for (let i = 0; i < perIp; i++) await attempt(`user${i}@example.com`, "wrong", "192.0.2.99");
      expect(await attempt("ada@example.com", "right-password", "192.0.2.99")).toBe("paused");
      expect(await attempt("ada@example.com", "right-password", "192.0.2.100")).toBe("ok");
    });

    it("takes the address server.ts decided, never a client's X-Forwarded-For", async () => {
      const { perIp } = throttleSettings();
      // Failures "from" an admin's address, claimed in headers, count against the real one.
      for (let i = 0; i < perIp; i++) {
        await attempt(`spoof${i}@example.com`, "wrong", "192.0.2.50", { "x-forwarded-for": "192.0.2.1", "x-real-ip": "192.0.2.1" });
      }
      expect(await attempt("ada@example.com", "right-password", "192.0.2.1")).toBe("ok");
      expect(await attempt("ada@example.com", "right-password", "192.0.2.50", { "x-forwarded-for": "192.0.2.2" })).toBe("paused");
      const recorded = await database.prisma.loginAttempt.findMany({ where: { email: { startsWith: "spoof" } }, select: { ip: true } });
      expect(new Set(recorded.map((r) => r.ip))).toEqual(new Set(["192.0.2.50"]));
    });

    it("purges attempts once they leave the window", async () => {
      const { windowMs } = throttleSettings();
      await attempt("ben@example.com", "wrong");
      await database.prisma.loginAttempt.create({ data: { email: "old@example.com", ip: "192.0.2.9", success: false, created_at: new Date(Date.now() - windowMs - 60_000) } });
      expect(await purgeLoginAttempts()).toBe(1);
      expect(await database.prisma.loginAttempt.findMany({ select: { email: true } })).toEqual([{ email: "ben@example.com" }]);
    });

    it("lets the pause run out, and a success resets the account's count", async () => {
      const { perAccount, windowMs } = throttleSettings();
      for (let i = 0; i < perAccount - 1; i++) await attempt("ben@example.com", "wrong");
      expect(await attempt("ben@example.com", "bens-password")).toBe("ok");
      expect(await attempt("ben@example.com", "wrong")).toBe("refused");
      expect(await throttleWait("ben@example.com", "203.0.113.7")).toBe(0);
      for (let i = 0; i < perAccount; i++) await attempt("ben@example.com", "wrong");
      expect(await throttleWait("ben@example.com", "203.0.113.7")).toBeGreaterThan(0);
      expect(await throttleWait("ben@example.com", "203.0.113.7", new Date(Date.now() + windowMs + 1000))).toBe(0);
    });
  });
}
