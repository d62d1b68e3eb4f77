import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as usersRoute } from "@/app/api/v1/users/route";
import { PATCH as userPATCH } from "@/app/api/v1/users/[id]/route";
import { GET as branchesRoute } from "@/app/api/v1/branches/route";
import type { SessionUser } from "@/lib/auth/permissions";
import { verifyPassword } from "@/lib/auth/password";
import { secretHash } from "@/lib/auth/secrets";
import type { Database } from "@/lib/db/client";
import { resetTokenRates } from "@/lib/tokens/rate";
import { createToken, revokeToken } from "@/lib/tokens/tokens";
import { changeOwnPassword } from "@/lib/users/account";
import { linkState, setPasswordWithLink } from "@/lib/users/links";
import { createUser, resetPassword, updateUser } from "@/lib/users/mutations";
import { actAs, createUsers, testDatabase, testDbKinds } from "../helpers/db";
import { apiRequest } from "../helpers/http";

// People and access (issue 15): the rules that keep an administrator in charge (also when two
// admins act at once), one-time set-password links, API tokens (hashed, expiring, revocable,
// never more than their user's role), and deactivation ending sessions and tokens for good.

const branchesGET = (request: Request) => branchesRoute(request, undefined);
const usersGET = (request: Request) => usersRoute(request, undefined);

const GOOD_PASSWORD = "violet quartz harbour 42";
const day = 86_400_000;

for (const kind of testDbKinds()) {
  describe(`people and access on ${kind}`, () => {
    let database: Database;
    let users: { admin: SessionUser; staff: SessionUser };

    beforeAll(async () => {
      database = await testDatabase(kind);
      users = await createUsers(database);
    });
    afterAll(async () => database?.close());
    beforeEach(() => {
      actAs(null);
      resetTokenRates();
    });

    const user = (id: number) => database.prisma.user.findUniqueOrThrow({ where: { id }, select: { role: true, active: true, session_version: true, password_hash: true } });
    const bearer = (token: string, path = "/api/v1/branches") => apiRequest(path, { headers: { authorization: `Bearer ${token}` } });

    it("refuses to let an admin demote or deactivate themself, and keeps the last active admin", async () => {
      await expect(updateUser(users.admin.id, { role: "staff" }, users.admin)).rejects.toMatchObject({ status: 409 });
      await expect(updateUser(users.admin.id, { active: false }, users.admin)).rejects.toMatchObject({ status: 409 });
      const other = (await createUser({ name: "Other Admin", email: `other-${kind}@people.test`, role: "admin", password: GOOD_PASSWORD }, users.admin)).user;
      // Other demotes the first admin: fine, Other is still an active admin…
      await updateUser(users.admin.id, { role: "staff" }, other as SessionUser);
      // …but Other is now the last one: nobody may take that away (not even through the API).
      actAs({ ...users.admin, role: "admin" });
      const response = await userPATCH(apiRequest(`/api/v1/users/${other.id}`, { method: "PATCH", json: { active: false } }), { params: Promise.resolve({ id: String(other.id) }) });
      expect(response.status).toBe(409);
      expect((await response.json()).error.message).toMatch(/last active administrator/);
      expect(await user(other.id)).toMatchObject({ role: "admin", active: true });
      await updateUser(users.admin.id, { role: "admin" }, other as SessionUser); // restore
    });

    it("lets only one of two admins demoting each other at once succeed", async () => {
      const a = (await createUser({ name: "Ann Admin", email: `ann-${kind}@people.test`, role: "admin", password: GOOD_PASSWORD }, users.admin)).user as SessionUser;
      const b = (await createUser({ name: "Bob Admin", email: `bob-${kind}@people.test`, role: "admin", password: GOOD_PASSWORD }, users.admin)).user as SessionUser;
      // Leave a and b as the only active admins.
      await database.prisma.user.updateMany({ where: { role: "admin", id: { notIn: [a.id, b.id] } }, data: { role: "staff" } });
      const results = await Promise.allSettled([updateUser(b.id, { active: false }, a), updateUser(a.id, { active: false }, b)]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      expect(results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason.status)).toEqual([409]);
      expect(await database.prisma.user.count({ where: { role: "admin", active: true } })).toBe(1);
      await database.prisma.user.update({ where: { id: users.admin.id }, data: { role: "admin" } });
    });

    it("makes a one-time link that is stored as a hash, works once, and ends the user's sessions", async () => {
      const { user: made, setPasswordUrl } = await createUser({ name: "Lin Link", email: `lin-${kind}@people.test`, role: "staff" }, users.admin);
      const secret = new URL(setPasswordUrl!).pathname.split("/").pop()!;
      const [link] = await database.prisma.passwordLink.findMany({ where: { user_id: made.id } });
      expect(link!.token_hash).toBe(secretHash(secret));
      expect(JSON.stringify(link)).not.toContain(secret);
      expect(await linkState(secret)).toMatchObject({ state: "valid", user: { id: made.id } });
      const before = (await user(made.id)).session_version;

      await expect(setPasswordWithLink(secret, "password1234")).rejects.toMatchObject({ status: 400, fields: { password: [expect.stringMatching(/too easy to guess/)] } });
      await setPasswordWithLink(secret, GOOD_PASSWORD);
      const after = await user(made.id);
      expect(await verifyPassword(GOOD_PASSWORD, after.password_hash)).toBe(true);
      expect(after.session_version).toBe(before + 1);
      expect(await linkState(secret)).toEqual({ state: "used" });
      await expect(setPasswordWithLink(secret, "another fine passphrase 7")).rejects.toMatchObject({ code: "link_used" });
      const audit = await database.prisma.auditEvent.findFirst({ where: { action: "user.password_set", entity_id: String(made.id) } });
      expect(audit).toMatchObject({ actor_id: made.id });
    });

    it("expires links after 24 hours, retires a user's older link on reset, and knows no forged one", async () => {
      const { user: made, setPasswordUrl } = await createUser({ name: "Exp Link", email: `exp-${kind}@people.test`, role: "staff" }, users.admin);
      const first = new URL(setPasswordUrl!).pathname.split("/").pop()!;
      const { setPasswordUrl: second } = await resetPassword(made.id, users.admin);
      expect(await linkState(first)).toEqual({ state: "expired" });
      const secret = new URL(second).pathname.split("/").pop()!;
      expect((await linkState(secret)).state).toBe("valid");
      await database.prisma.passwordLink.updateMany({ where: { token_hash: secretHash(secret) }, data: { expires_at: new Date(Date.now() - 1000) } });
      expect(await linkState(secret)).toEqual({ state: "expired" });
      await expect(setPasswordWithLink(secret, GOOD_PASSWORD)).rejects.toMatchObject({ code: "link_expired" });
      for (const forged of ["", "x", "a".repeat(43), `${secret.slice(0, -1)}A`, "../../etc"]) expect((await linkState(forged)).state).toBe("unknown");
      expect(await database.prisma.auditEvent.count({ where: { action: "user.password_reset", entity_id: String(made.id) } })).toBe(1);
    });

    it("keeps tokens only as hashes; a token acts as its user within its scope, never above the user's role", async () => {
      const { token, row } = await createToken(users.staff, { name: "staff script", scope: "export", expires_at: new Date(Date.now() + day) });
      expect(token).toMatch(/^bsc_[A-Za-z0-9_-]{43}$/);
      const stored = await database.prisma.apiToken.findUniqueOrThrow({ where: { id: row.id } });
      expect(stored.token_hash).toBe(secretHash(token));
      expect(JSON.stringify(stored)).not.toContain(token.slice(4));
      expect((await branchesGET(bearer(token))).status).toBe(200);
      // The user is staff: the users list is not theirs, token or not.
      expect((await usersGET(bearer(token, "/api/v1/users"))).status).toBe(403);
      const used = await database.prisma.apiToken.findUniqueOrThrow({ where: { id: row.id } });
      expect(used.last_used_at).not.toBeNull();
    });

    it("answers 401 alike for an unknown, malformed, expired or revoked token", async () => {
      const { token: expired, row } = await createToken(users.staff, { name: "short", scope: "read", expires_at: new Date(Date.now() + day) });
      await database.prisma.apiToken.update({ where: { id: row.id }, data: { expires_at: new Date(Date.now() - 1000) } });
      const { token: revoked, row: r2 } = await createToken(users.staff, { name: "revoked", scope: "read", expires_at: new Date(Date.now() + day) });
      await revokeToken(users.staff, r2.id);
      const bodies = new Set<string>();
      for (const bad of [expired, revoked, `bsc_${"A".repeat(43)}`, "not-a-token", `${revoked}x`]) {
        const response = await branchesGET(bearer(bad));
        expect(response.status, bad).toBe(401);
        bodies.add(await response.text());
      }
      const basic = await branchesGET(apiRequest("/api/v1/branches", { headers: { authorization: "Basic YTpi" } }));
      expect(basic.status).toBe(401);
      bodies.add(await basic.text());
      expect(bodies.size).toBe(1); // no hint which part was wrong
      // Someone else's token cannot be revoked by you: the same 404 as none.
      const { row: adminToken } = await createToken(users.admin, { name: "admin's", scope: "read", expires_at: new Date(Date.now() + day) });
      await expect(revokeToken(users.staff, adminToken.id)).rejects.toMatchObject({ status: 404 });
    });

    it("throttles a token past its rate with 429 and Retry-After", async () => {
      process.env.TOKEN_REQUESTS_PER_MINUTE = "3";
      try {
        const { token } = await createToken(users.staff, { name: "fast loop", scope: "read", expires_at: new Date(Date.now() + day) });
        const statuses = [];
        for (let i = 0; i < 5; i++) statuses.push((await branchesGET(bearer(token))).status);
        expect(statuses).toEqual([200, 200, 200, 429, 429]);
        const limited = await branchesGET(bearer(token));
        expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      } finally {
        delete process.env.TOKEN_REQUESTS_PER_MINUTE;
      }
    });

    it("ends a deactivated user's sessions and tokens for good, also when deactivated by hand in SQL", async () => {
      const { user: made } = await createUser({ name: "Dee Active", email: `dee-${kind}@people.test`, role: "staff", password: GOOD_PASSWORD }, users.admin);
      const { token } = await createToken(made as SessionUser, { name: "dee's", scope: "read", expires_at: new Date(Date.now() + day) });
      const { token: token2 } = await createToken(made as SessionUser, { name: "dee's second", scope: "read", expires_at: new Date(Date.now() + day) });
      expect((await branchesGET(bearer(token))).status).toBe(200);
      const before = (await user(made.id)).session_version;
      await updateUser(made.id, { active: false }, users.admin);
      expect((await user(made.id)).session_version).toBe(before + 1);
      expect((await branchesGET(bearer(token))).status).toBe(401);
      await updateUser(made.id, { active: true }, users.admin);
      expect((await branchesGET(bearer(token))).status).toBe(401); // reactivation brings no token back
      expect((await branchesGET(bearer(token2))).status).toBe(401);
      // An operator's SQL does the same (the triggers).
      const { token: token3 } = await createToken(made as SessionUser, { name: "after", scope: "read", expires_at: new Date(Date.now() + day) });
      await database.prisma.$executeRawUnsafe(`UPDATE users SET active = false WHERE id = ${made.id}`);
      await database.prisma.$executeRawUnsafe(`UPDATE users SET active = true WHERE id = ${made.id}`);
      expect((await branchesGET(bearer(token3))).status).toBe(401);
      const actions = (await database.prisma.auditEvent.findMany({ where: { entity: "user", entity_id: String(made.id) }, orderBy: { id: "asc" } })).map((e) => e.action);
      expect(actions).toEqual(["user.create", "user.deactivate", "user.reactivate"]);
    });

    it("changes your own password only with the current one, throttled like a sign-in, and moves the session version", async () => {
      const { user: made } = await createUser({ name: "Cal Change", email: `cal-${kind}@people.test`, role: "staff", password: GOOD_PASSWORD }, users.admin);
      const me = made as SessionUser;
      const before = (await user(me.id)).session_version;
      await expect(changeOwnPassword(me, "not my password", "a brand new passphrase 9")).rejects.toMatchObject({ status: 400, fields: { current: expect.any(Array) } });
      await expect(changeOwnPassword(me, GOOD_PASSWORD, "password1234")).rejects.toMatchObject({ status: 400, fields: { password: expect.any(Array) } });
      const version = await changeOwnPassword(me, GOOD_PASSWORD, "a brand new passphrase 9");
      expect(version).toBe(before + 1);
      expect(await verifyPassword("a brand new passphrase 9", (await user(me.id)).password_hash)).toBe(true);
      expect(await database.prisma.auditEvent.count({ where: { action: "user.password_change", actor_id: me.id } })).toBe(1);
      // Guessing the current password counts as failed sign-ins: the account pauses as the form's would.
      for (let i = 0; i < 5; i++) await expect(changeOwnPassword(me, `guess ${i}`, "another passphrase 10")).rejects.toMatchObject({ status: 400 });
      await expect(changeOwnPassword(me, "a brand new passphrase 9", "another passphrase 10")).rejects.toMatchObject({ status: 429, retryAfter: expect.any(Number) });
    });

    it("refuses guessable passwords wherever one is set", async () => {
      for (const password of ["password1234", "letmein123456", "Password2026!", "aaaaaaaaaaaaaaaa", "short"]) {
        await expect(createUser({ name: "Lin Guess", email: `guess-${kind}@people.test`, role: "staff", password }, users.admin)).rejects.toMatchObject({
          status: 400,
        });
      }
      expect(await database.prisma.user.count({ where: { email: `guess-${kind}@people.test` } })).toBe(0);
    });
  });
}
