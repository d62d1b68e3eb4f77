import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { signOutAction } from "@/app/(console)/session-actions";
import type { SessionUser } from "@/lib/auth/permissions";
import type { Database } from "@/lib/db/client";
import { actAs, createUsers, testDatabase, testDbKinds } from "../helpers/db";

// The header's "Sign out" form posts to signOutAction: it ends every session of the user (the
// session version moves on, so copies of the cookie stop working), audits it, clears the cookie
// and sends the browser to /login. e2e/auth.spec.ts clicks it in a browser.

const jar = vi.hoisted(() => ({ cookies: new Map<string, { value: string; maxAge?: number; secure?: boolean }>() }));
vi.mock("next/headers", () => ({
  cookies: async () => ({
    has: (name: string) => jar.cookies.has(name),
    set: (name: string, value: string, options: { maxAge?: number; secure?: boolean }) => jar.cookies.set(name, { value, ...options }),
  }),
  headers: async () => new Headers(),
}));

/** The redirect Next's redirect() throws, or null when the action returned. */
async function redirectOf(run: () => Promise<unknown>): Promise<string | null> {
  try {
    await run();
    return null;
  } catch (error) {
    const digest = String((error as { digest?: string }).digest ?? "");
    if (!digest.startsWith("NEXT_REDIRECT")) throw error;
    return digest.split(";")[2] ?? "";
  }
}

for (const kind of testDbKinds()) {
  describe(`sign-out on ${kind}`, () => {
    let database: Database;
    let users: { admin: SessionUser; staff: SessionUser };

    beforeAll(async () => {
      database = await testDatabase(kind);
      users = await createUsers(database);
    });
    afterAll(async () => database?.close());

    const versionOf = async (id: number) =>
      (await database.prisma.user.findUniqueOrThrow({ where: { id }, select: { session_version: true } })).session_version;

    it("ends the user's sessions, audits it, clears the cookie and goes to /login", async () => {
      jar.cookies = new Map([["next-auth.session-token", { value: "a-token" }]]);
      actAs(users.staff);
      const before = await versionOf(users.staff.id);

      expect(await redirectOf(() => signOutAction())).toBe("/login");

      expect(await versionOf(users.staff.id)).toBe(before + 1);
      expect(await versionOf(users.admin.id)).toBe(0); // nobody else's
      const event = await database.prisma.auditEvent.findFirst({ where: { action: "auth.sign_out" }, orderBy: { id: "desc" } });
      expect(event).toMatchObject({ actor_id: users.staff.id });
      expect(jar.cookies.get("next-auth.session-token")).toMatchObject({ value: "", maxAge: 0, secure: false });
      expect(jar.cookies.has("__Secure-next-auth.session-token")).toBe(false); // only cookies that were there
    });

    it("on an https console clears the __Secure- cookie with the Secure attribute browsers require of that name", async () => {
      const previous = process.env.NEXTAUTH_URL;
      process.env.NEXTAUTH_URL = "https://console.example.com";
      try {
        jar.cookies = new Map([["__Secure-next-auth.session-token", { value: "a-token" }]]);
        actAs(users.admin);
        expect(await redirectOf(() => signOutAction())).toBe("/login");
        expect(jar.cookies.get("__Secure-next-auth.session-token")).toMatchObject({ value: "", maxAge: 0, secure: true });
      } finally {
        if (previous === undefined) delete process.env.NEXTAUTH_URL;
        else process.env.NEXTAUTH_URL = previous;
      }
    });

    it("without a valid session changes nothing but the cookie", async () => {
      jar.cookies = new Map([["next-auth.session-token", { value: "stale" }]]);
      actAs(null);
      const events = await database.prisma.auditEvent.count();
      const versions = [await versionOf(users.staff.id), await versionOf(users.admin.id)];

      expect(await redirectOf(() => signOutAction())).toBe("/login");

      expect(await database.prisma.auditEvent.count()).toBe(events);
      expect([await versionOf(users.staff.id), await versionOf(users.admin.id)]).toEqual(versions);
      expect(jar.cookies.get("next-auth.session-token")).toMatchObject({ value: "", maxAge: 0 });
    });
  });
}
