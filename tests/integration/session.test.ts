import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "@/lib/db/client";
import { testDatabase, testDbKinds } from "../helpers/db";

// The real currentUser(): the cookie only names the user; role, `active` and the session
// version are read from the database on every request.
vi.unmock("@/lib/auth/session");
const jar = vi.hoisted(() => ({ token: undefined as string | undefined }));
vi.mock("next/headers", () => ({
  cookies: async () => ({ get: (name: string) => (name === "next-auth.session-token" && jar.token ? { name, value: jar.token } : undefined) }),
  headers: async () => new Headers(),
}));

const SECRET = "session-test-secret";

for (const kind of testDbKinds()) {
  describe(`sessions on ${kind}`, () => {
    let database: Database;
    let userId: number;

    beforeAll(async () => {
      process.env.NEXTAUTH_SECRET = SECRET;
      database = await testDatabase(kind);
      userId = (await database.prisma.user.create({ data: { email: "eve@example.com", name: "Eve", role: "admin", password_hash: "x" } })).id;
    });
    afterAll(async () => database?.close());

    async function whoAmI(token: Record<string, unknown> | string | undefined) {
      jar.token = typeof token === "object" ? await encode({ token, secret: SECRET }) : token;
      vi.resetModules(); // React's cache() memoises per request; each call here is a new request
      const { currentUser } = await import("@/lib/auth/session");
      return currentUser();
    }

    it("follows the database, not the cookie", async () => {
      const token = { uid: userId, role: "admin", sv: 0 };
      expect(await whoAmI(token)).toMatchObject({ id: userId, role: "admin" });

      await database.prisma.user.update({ where: { id: userId }, data: { role: "staff" } });
      expect(await whoAmI(token)).toMatchObject({ role: "staff" }); // demotion applies at once

      await database.prisma.user.update({ where: { id: userId }, data: { active: false } });
      expect(await whoAmI(token)).toBeNull(); // deactivation too
      await database.prisma.user.update({ where: { id: userId }, data: { active: true } });

      await database.prisma.user.update({ where: { id: userId }, data: { session_version: { increment: 1 } } });
      expect(await whoAmI(token)).toBeNull(); // signed out everywhere: the old cookie is useless
      expect(await whoAmI({ ...token, sv: 1 })).toMatchObject({ id: userId });
    });

    it("ignores missing, forged and foreign tokens", async () => {
      expect(await whoAmI(undefined)).toBeNull();
      expect(await whoAmI("not-a-jwt")).toBeNull();
      const forged = await encode({ token: { uid: userId, sv: 1 }, secret: "another-secret" });
      expect(await whoAmI(forged)).toBeNull();
      expect(await whoAmI({ uid: 999_999, sv: 0 })).toBeNull();
    });
  });
}
