import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "@/lib/db/client";
import { testDatabase, testDbKinds } from "../helpers/db";

// The real currentUser() (the session principal's user): the cookie only names the user; role, `active` and the session
// version are read from the database on every request.
vi.unmock("@/lib/auth/session");
const jar = vi.hoisted(() => ({ token: undefined as string | undefined, name: "next-auth.session-token" }));
vi.mock("next/headers", () => ({
  cookies: async () => ({ get: (name: string) => (name === jar.name && jar.token ? { name, value: jar.token } : undefined) }),
  headers: async () => new Headers(),
}));

const SECRET = "session-test-secret-0123456789abcdef";
const now = () => Math.floor(Date.now() / 1000);

for (const kind of testDbKinds()) {
  describe(`sessions on ${kind}`, () => {
    let database: Database;
    let userId: number;

    beforeAll(async () => {
      process.env.NEXTAUTH_SECRET = SECRET;
      database = await testDatabase(kind);
      userId = (await database.prisma.user.create({ data: { email: "eve@example.com", name: "Eve", role: "admin", password_hash: "x" } })).id;
      // Another active admin, so that Eve may be demoted and deactivated (there is always one).
      await database.prisma.user.create({ data: { email: "ada@example.com", name: "Ada", role: "admin", password_hash: "x" } });
    });
    afterAll(async () => database?.close());

    async function whoAmI(token: Record<string, unknown> | string | undefined, cookieName = "next-auth.session-token") {
      jar.token = typeof token === "object" ? await encode({ token, secret: SECRET }) : token;
      jar.name = cookieName;
      vi.resetModules(); // React's cache() memoises per request; each call here is a new request
      const { currentUser } = await import("@/lib/auth/guards");
      return currentUser();
    }

    it("follows the database, not the cookie", async () => {
      const token = { uid: userId, sv: 0, sat: now() };
      expect(await whoAmI(token)).toMatchObject({ id: userId, role: "admin" });

      await database.prisma.user.update({ where: { id: userId }, data: { role: "staff" } });
      expect(await whoAmI(token)).toMatchObject({ role: "staff" }); // demotion applies at once

      await database.prisma.user.update({ where: { id: userId }, data: { session_version: { increment: 1 } } });
      expect(await whoAmI(token)).toBeNull(); // signed out everywhere: the old cookie is useless
      expect(await whoAmI({ ...token, sv: 1 })).toMatchObject({ id: userId });

      await database.prisma.user.update({ where: { id: userId }, data: { active: false } });
      expect(await whoAmI({ ...token, sv: 1 })).toBeNull(); // deactivation too
      await database.prisma.user.update({ where: { id: userId }, data: { active: true } });
      expect(await whoAmI({ ...token, sv: 1 })).toBeNull(); // and for good: reactivating does not revive it
      expect(await whoAmI({ ...token, sv: 2 })).toMatchObject({ id: userId }); // a new sign-in works
    });

    it("ends a session 8 hours after its sign-in, however it is used", async () => {
      const { session_version: sv } = await database.prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { session_version: true } });
      const signedIn = (secondsAgo: number) => ({ uid: userId, sv, sat: now() - secondsAgo });
      expect(await whoAmI(signedIn(8 * 3600 - 60))).toMatchObject({ id: userId });
      expect(await whoAmI(signedIn(8 * 3600 + 1))).toBeNull();
      expect(await whoAmI({ uid: userId, sv })).toBeNull(); // no sign-in time: not a session of ours
      expect(await whoAmI(signedIn(-3600))).toBeNull(); // signed in "in the future"
    });

    it("reads only the cookie name next-auth writes: on https, only the __Secure- one", async () => {
      const { session_version: sv } = await database.prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { session_version: true } });
      const token = { uid: userId, sv, sat: now() };
      const previous = process.env.NEXTAUTH_URL;
      try {
        process.env.NEXTAUTH_URL = "https://console.example.com";
        expect(await whoAmI(token, "next-auth.session-token")).toBeNull(); // planted over http or by a sibling site
        expect(await whoAmI(token, "__Secure-next-auth.session-token")).toMatchObject({ id: userId });
        process.env.NEXTAUTH_URL = "http://localhost:3000";
        expect(await whoAmI(token, "__Secure-next-auth.session-token")).toBeNull();
        expect(await whoAmI(token, "next-auth.session-token")).toMatchObject({ id: userId });
      } finally {
        if (previous === undefined) delete process.env.NEXTAUTH_URL;
        else process.env.NEXTAUTH_URL = previous;
      }
    });

    it("ignores missing, forged and foreign tokens", async () => {
      expect(await whoAmI(undefined)).toBeNull();
      expect(await whoAmI("not-a-jwt")).toBeNull();
      const forged = await encode({ token: { uid: userId, sv: 2, sat: now() }, secret: "another-secret-0123456789abcdefghij" });
      expect(await whoAmI(forged)).toBeNull();
      expect(await whoAmI({ uid: 999_999, sv: 0, sat: now() })).toBeNull();
      const { session_version: sv } = await database.prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { session_version: true } });
      const valid = await encode({ token: { uid: userId, sv, sat: now() }, secret: SECRET });
      expect(await whoAmI(valid)).toMatchObject({ id: userId });
      expect(await whoAmI(`${valid.slice(0, -4)}AAAA`)).toBeNull(); // altered
      expect(await whoAmI(await encode({ token: { uid: userId, sv, sat: now() }, secret: SECRET, maxAge: -60 }))).toBeNull(); // past its expiry
    });
  });
}
