import { NextRequest } from "next/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as authPost } from "@/app/api/auth/[...nextauth]/route";
import { authOptions } from "@/lib/auth/options";
import { hashPassword } from "@/lib/auth/password";
import { throttleSettings, throttleWait } from "@/lib/auth/throttle";
import type { Database } from "@/lib/db/client";
import { testDatabase, testDbKinds } from "../helpers/db";

// The credentials check (next-auth's authorize) and the throttle in front of next-auth's
// callback route. The full HTTP sign-in is covered end to end in e2e/auth.spec.ts.

type Authorize = (credentials: Record<string, string>, req: { headers: Record<string, string> }) => Promise<unknown>;
const authorize = (authOptions.providers[0] as unknown as { options: { authorize: Authorize } }).options.authorize;

async function attempt(email: string, password: string, ip = "203.0.113.7") {
  const wait = await throttleWait(email.trim().toLowerCase(), ip);
  if (wait > 0) return "paused" as const;
  return (await authorize({ email, password }, { headers: { "x-forwarded-for": ip } })) ? ("ok" as const) : ("refused" as const);
}

function callbackPost(email: string, ip: string) {
  const request = new NextRequest("http://localhost:3000/api/auth/callback/credentials", {
    method: "POST",
    body: new URLSearchParams({ email, password: "whatever", csrfToken: "x", json: "true" }),
    headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": ip },
  });
  return authPost(request, { params: Promise.resolve({ nextauth: ["callback", "credentials"] }) });
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

    it("pauses an account after repeated failures with 429 and Retry-After; other accounts go on", async () => {
      const { perAccount } = throttleSettings();
      for (let i = 0; i < perAccount; i++) expect(await attempt("ada@example.com", `nope-${i}`)).toBe("refused");
      expect(await attempt("ada@example.com", "right-password")).toBe("paused");
      const locked = await callbackPost("ada@example.com", "203.0.113.7");
      expect(locked.status).toBe(429);
      expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await locked.json()).toMatchObject({ url: expect.stringContaining("error=TooManyAttempts"), error: { code: "too_many_attempts" } });
      expect(await attempt("ben@example.com", "bens-password")).toBe("ok");
      expect(await database.prisma.auditEvent.count({ where: { action: "auth.locked", actor_email: "ada@example.com" } })).toBe(1);
    });

    it("treats an unknown email exactly like a known one", async () => {
      const { perAccount } = throttleSettings();
      for (let i = 0; i < perAccount; i++) {
        expect(await attempt("ben@example.com", "wrong", "198.51.100.1")).toBe("refused");
        expect(await attempt("nobody@example.com", "wrong", "198.51.100.2")).toBe("refused");
      }
      const [known, unknown] = [await callbackPost("ben@example.com", "198.51.100.1"), await callbackPost("nobody@example.com", "198.51.100.2")];
      expect([known.status, await known.json()]).toEqual([unknown.status, await unknown.json()]);
      expect(known.status).toBe(429);
    });

    it("pauses an address that tries many accounts, not other addresses", async () => {
      const { perIp } = throttleSettings();
      for (let i = 0; i < perIp; i++) await attempt(`user${i}@example.com`, "wrong", "192.0.2.99");
      expect(await attempt("ada@example.com", "right-password", "192.0.2.99")).toBe("paused");
      expect((await callbackPost("ada@example.com", "192.0.2.99")).status).toBe(429);
      expect(await attempt("ada@example.com", "right-password", "192.0.2.100")).toBe("ok");
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
