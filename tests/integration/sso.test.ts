import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInWithSso } from "@/lib/auth/sso";
import type { Database } from "@/lib/db/client";
import { testDatabase, testDbKinds } from "../helpers/db";

// What a single sign-on does to the users table, once next-auth has checked the provider's
// answer (lib/auth/sso.ts): created on first sign-in, the same user for a known verified email,
// role and branch scope written from the groups at every sign-in, refusals and changes audited.
// The whole flow against a real OpenID provider: tests/http/sso.test.ts and e2e/sso.spec.ts.

const SETTINGS = {
  OIDC_ISSUER: "https://sso.example.com",
  OIDC_CLIENT_ID: "console",
  OIDC_CLIENT_SECRET: "secret",
  OIDC_ADMIN_GROUPS: "admins",
  OIDC_STAFF_GROUPS: "staff",
  OIDC_BRANCH_GROUP_PREFIX: "branch:",
};
const claims = (sub: string, email: string, groups: string[], extra: Record<string, unknown> = {}) => ({ sub, email, email_verified: true, name: sub, groups, ...extra });

for (const kind of testDbKinds()) {
  describe(`single sign-on's users on ${kind}`, () => {
    let database: Database;
    const saved: Record<string, string | undefined> = {};

    beforeAll(async () => {
      for (const [name, value] of Object.entries(SETTINGS)) {
        saved[name] = process.env[name];
        process.env[name] = value;
      }
      database = await testDatabase(kind);
      await database.prisma.branch.createMany({ data: [{ name: "Leeds" }, { name: "York" }] });
      await database.prisma.user.create({ data: { email: "known@sso.test", name: "Known Person", role: "staff", password_hash: "x" } });
      await database.prisma.user.create({ data: { email: "gone@sso.test", name: "Gone", role: "admin", password_hash: "x", active: false } });
      // An active administrator who never signs in here: the demotions below never take away the last one.
      await database.prisma.user.create({ data: { email: "keeper@sso.test", name: "Keeper", role: "admin", password_hash: "x" } });
    });
    afterAll(async () => {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await database?.close();
    });

    const userOf = (email: string) =>
      database.prisma.user.findUnique({ where: { email }, select: { id: true, name: true, role: true, branch_scoped: true, sso_subject: true, sso_issuer: true, branches: { select: { branch: { select: { name: true } } } } } });
    const audits = (action: string) => database.prisma.auditEvent.findMany({ where: { action }, orderBy: { id: "asc" }, select: { actor_email: true, after: true, before: true } });

    it("creates the user on first sign-in, once even when two sign-ins come at once", async () => {
      const [a, b] = await Promise.all([signInWithSso(claims("s-new", "New@SSO.test", ["staff", "branch:york"])), signInWithSso(claims("s-new", "new@sso.test", ["staff", "branch:york"]))]);
      expect(a.ok && b.ok && a.user.id === b.user.id).toBe(true);
      const user = await userOf("new@sso.test");
      expect(user).toMatchObject({ name: "s-new", role: "staff", branch_scoped: true, sso_subject: "s-new", branches: [{ branch: { name: "York" } }] });
      expect((await audits("user.create")).filter((e) => e.actor_email === "new@sso.test")).toHaveLength(1);
    });

    it("links a known email to its user, audited once, and writes role and scope from the groups every time", async () => {
      const known = await userOf("known@sso.test");
      const first = await signInWithSso(claims("s-known", "known@sso.test", ["admins", "branch:Leeds"]));
      expect(first).toMatchObject({ ok: true, user: { id: String(known!.id), name: "Known Person", role: "admin" } });
      expect(await userOf("known@sso.test")).toMatchObject({ role: "admin", branch_scoped: false, branches: [], sso_subject: "s-known" });
      await signInWithSso(claims("s-known", "known@sso.test", ["staff", "branch:Leeds", "branch:Atlantis"]));
      expect(await userOf("known@sso.test")).toMatchObject({ role: "staff", branch_scoped: true, branches: [{ branch: { name: "Leeds" } }] });
      // Branch groups that name no branch give none (never every branch).
      await signInWithSso(claims("s-known", "known@sso.test", ["staff", "branch:Atlantis"]));
      expect(await userOf("known@sso.test")).toMatchObject({ role: "staff", branch_scoped: true, branches: [] });
      // No branch group: every branch.
      await signInWithSso(claims("s-known", "known@sso.test", ["staff"]));
      expect(await userOf("known@sso.test")).toMatchObject({ branch_scoped: false, branches: [] });

      expect((await audits("user.sso_link")).map((e) => e.actor_email)).toEqual(["known@sso.test"]);
      const roles = (await audits("user.role_change")).filter((e) => e.actor_email === "known@sso.test");
      expect(roles.map((e) => [e.before, (e.after as { role: string }).role])).toEqual([[{ role: "staff" }, "admin"], [{ role: "admin" }, "staff"]]);
      const scopes = (await audits("user.scope_change")).filter((e) => e.actor_email === "known@sso.test");
      expect(scopes.at(1)?.after).toMatchObject({ branch_ids: [], unknown_branches: ["atlantis"], via: "single sign-on" });
      expect((await audits("auth.sign_in")).filter((e) => e.actor_email === "known@sso.test")).toHaveLength(4);
    });

    it("refuses no group, an unverified email and a deactivated user, audited, and changes nothing", async () => {
      expect(await signInWithSso(claims("s-x", "nogroup@sso.test", ["other"]))).toEqual({ ok: false, reason: "no_group" });
      expect(await signInWithSso(claims("s-y", "unverified@sso.test", ["admins"], { email_verified: false }))).toEqual({ ok: false, reason: "unverified_email" });
      expect(await signInWithSso(claims("s-z", "gone@sso.test", ["staff"]))).toEqual({ ok: false, reason: "deactivated" });
      expect(await userOf("nogroup@sso.test")).toBeNull();
      expect(await userOf("unverified@sso.test")).toBeNull();
      expect(await userOf("gone@sso.test")).toMatchObject({ role: "admin", sso_subject: null });
      const refused = await audits("auth.sso_refused");
      expect(refused.map((e) => [e.actor_email, (e.after as { reason: string }).reason])).toEqual([
        ["nogroup@sso.test", "no_group"],
        ["unverified@sso.test", "unverified_email"],
        ["gone@sso.test", "deactivated"],
      ]);
    });

    it("signs in only the linked issuer and subject to a linked account; an old link without issuer is the configured provider's", async () => {
      expect(await signInWithSso(claims("s-first", "one@sso.test", ["staff"], { iss: "https://sso.example.com" }))).toMatchObject({ ok: true });
      expect(await userOf("one@sso.test")).toMatchObject({ sso_subject: "s-first", sso_issuer: "https://sso.example.com" });
      // Another subject with the same verified email, and the same subject of another issuer: refused, nothing changes.
      expect(await signInWithSso(claims("s-second", "one@sso.test", ["admins"]))).toEqual({ ok: false, reason: "subject_mismatch" });
      expect(await signInWithSso(claims("s-first", "one@sso.test", ["admins"], { iss: "https://other.example.com" }))).toEqual({ ok: false, reason: "subject_mismatch" });
      expect(await userOf("one@sso.test")).toMatchObject({ role: "staff", sso_subject: "s-first", sso_issuer: "https://sso.example.com" });
      const refused = (await audits("auth.sso_refused")).filter((e) => (e.after as { reason: string }).reason === "subject_mismatch");
      expect(refused.map((e) => [e.actor_email, (e.after as { subject: string }).subject])).toEqual([
        ["one@sso.test", "s-second"],
        ["one@sso.test", "s-first"],
      ]);
      // The linked subject still signs in, and is found by its subject whatever email its token now carries.
      expect(await signInWithSso(claims("s-first", "one@sso.test", ["staff"]))).toMatchObject({ ok: true });
      const moved = await signInWithSso(claims("s-first", "renamed@sso.test", ["staff"]));
      expect(moved.ok && moved.user.email).toBe("one@sso.test");
      expect(await userOf("renamed@sso.test")).toBeNull();

      // A link made before issuers were kept: the configured provider's, filled in at its next sign-in.
      await database.prisma.user.create({ data: { email: "legacy@sso.test", name: "Legacy", role: "staff", password_hash: "x", sso_subject: "s-legacy" } });
      expect(await signInWithSso(claims("s-intruder", "legacy@sso.test", ["staff"]))).toEqual({ ok: false, reason: "subject_mismatch" });
      expect(await signInWithSso(claims("s-legacy", "legacy@sso.test", ["staff"], { iss: "https://sso.example.com" }))).toMatchObject({ ok: true });
      expect(await userOf("legacy@sso.test")).toMatchObject({ sso_subject: "s-legacy", sso_issuer: "https://sso.example.com" });
    });

    it("keeps the last active administrator an administrator when their groups would demote them, audited", async () => {
      // known@sso.test is made the one active administrator.
      await database.prisma.user.update({ where: { email: "known@sso.test" }, data: { role: "admin" } });
      await database.prisma.user.updateMany({ where: { role: "admin", active: true, email: { not: "known@sso.test" } }, data: { role: "staff" } });
      expect(await database.prisma.user.findMany({ where: { role: "admin", active: true }, select: { email: true } })).toEqual([{ email: "known@sso.test" }]);
      const outcome = await signInWithSso(claims("s-known", "known@sso.test", ["staff", "branch:Leeds"]));
      expect(outcome).toMatchObject({ ok: true, user: { role: "admin" } });
      expect(await userOf("known@sso.test")).toMatchObject({ role: "admin", branch_scoped: false, branches: [] });
      const kept = (await audits("user.role_change_refused")).filter((e) => e.actor_email === "known@sso.test");
      expect(kept.map((e) => e.after)).toEqual([expect.objectContaining({ role: "staff", reason: "last_admin", via: "single sign-on" })]);
      await database.prisma.user.update({ where: { email: "keeper@sso.test" }, data: { role: "admin" } });
    });
  });
}
