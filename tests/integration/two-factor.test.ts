import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DELETE as twoFactorDELETE } from "@/app/api/v1/users/[id]/two-factor/route";
import { authOptions } from "@/lib/auth/options";
import { hashPassword } from "@/lib/auth/password";
import type { SessionUser } from "@/lib/auth/permissions";
import type { Principal } from "@/lib/auth/principal";
import { branchScope } from "@/lib/auth/scope";
import { AppError } from "@/lib/errors";
import { duringSignIn } from "@/lib/auth/sign-in";
import { currentTotp, RECOVERY_CODE_COUNT, recoveryCodeHash } from "@/lib/auth/totp";
import { confirmTwoFactor, newRecoveryCodesFor, startTwoFactorSetup, turnOffTwoFactor, twoFactorState } from "@/lib/auth/two-factor";
import type { Database } from "@/lib/db/client";
import { CLIENT_ADDRESS_HEADER } from "@/lib/server/client-address";
import { resetTwoFactor, SELF_TWO_FACTOR_MESSAGE } from "@/lib/users/mutations";
import { actAs, testDatabase, testDbKinds } from "../helpers/db";
import { apiRequest, routeContext } from "../helpers/http";
import { waitingForLocks } from "../helpers/postgres";

// Two-factor codes: set-up (after the password or, for single sign-on, a recent sign-in: QR and
// secret, confirmed by a code, ten hashed recovery codes, other sessions ended), the
// credentials check (the code is spent once, even by requests at once), turning off with the
// password and a code, and an administrator's reset ending the user's sessions. The same over
// real HTTP with every body shape: tests/http/two-factor.test.ts.

type Authorize = (credentials: Record<string, string>, req: { headers: Record<string, string> }) => Promise<unknown>;
const authorize = (authOptions.providers[0] as unknown as { options: { authorize: Authorize } }).options.authorize;
const PASSWORD = "right-password";

/** A session's principal (lib/auth/principal.ts) signed in `ago` seconds before now. */
const session = (user: SessionUser, via: "password" | "sso" = "password", ago = 0): Principal => ({
  user: { ...user, scope: branchScope(user) },
  via,
  signedInAt: Math.floor(Date.now() / 1000) - ago,
  twoFactor: "not-required",
});

async function attempt(credentials: Record<string, string>, ip = "203.0.113.9") {
  try {
    const { result, retryAfter } = await duringSignIn(() => authorize(credentials, { headers: { [CLIENT_ADDRESS_HEADER]: ip } }));
    if (retryAfter > 0) return "paused";
    return result ? "ok" : "refused";
  } catch (error) {
    return (error as Error).message;
  }
}

for (const kind of testDbKinds()) {
  describe(`two-factor codes on ${kind}`, () => {
    let database: Database;
    let ada: SessionUser;
    let admin: SessionUser;

    beforeAll(async () => {
      database = await testDatabase(kind);
      const hash = await hashPassword(PASSWORD);
      const made = await database.prisma.user.create({ data: { email: "ada@2fa.test", name: "Ada", role: "staff", password_hash: hash }, select: { id: true, email: true, name: true, role: true } });
      ada = { ...made, branch_ids: null };
      const boss = await database.prisma.user.create({ data: { email: "boss@2fa.test", name: "Boss", role: "admin", password_hash: hash }, select: { id: true, email: true, name: true, role: true } });
      admin = { ...boss, branch_ids: null };
    });
    afterAll(async () => database?.close());
    beforeEach(async () => {
      await database.prisma.loginAttempt.deleteMany();
    });

    const secretOf = async () => (await database.prisma.user.findUniqueOrThrow({ where: { id: ada.id }, select: { two_factor_secret: true } })).two_factor_secret!;

    it("sets up after the password: a QR code and secret, confirmed only by a current code, then ten recovery codes stored as hashes", async () => {
      expect(await twoFactorState(ada)).toEqual({ state: "off", started: false });
      await expect(startTwoFactorSetup(session(ada), "wrong")).rejects.toMatchObject({ status: 400, fields: { password: expect.any(Array) } });
      await expect(startTwoFactorSetup(session(ada), "")).rejects.toMatchObject({ status: 400, fields: { password: expect.any(Array) } });
      expect(await twoFactorState(ada)).toEqual({ state: "off", started: false });
      // The wrong password counted toward the sign-in pause; the empty one was never tried.
      expect(await database.prisma.loginAttempt.count({ where: { email: ada.email, success: false } })).toBe(1);
      const shown = await startTwoFactorSetup(session(ada), PASSWORD);
      expect(shown.qr).toMatch(/^data:image\/svg\+xml;base64,/);
      expect(Buffer.from(shown.qr.split(",")[1]!, "base64").toString()).toContain("<svg");
      expect(shown.secret).toMatch(/^[A-Z2-7]{32}$/);
      // The page itself never shows the secret again.
      expect(await twoFactorState(ada)).toEqual({ state: "off", started: true });
      // Not on yet: the password alone still signs in.
      expect(await attempt({ email: ada.email, password: PASSWORD })).toBe("ok");

      const before = await database.prisma.user.findUniqueOrThrow({ where: { id: ada.id }, select: { session_version: true } });
      await expect(confirmTwoFactor(ada, "000000" === currentTotp(shown.secret) ? "111111" : "000000")).rejects.toMatchObject({ status: 400 });
      const { recoveryCodes: codes, sessionVersion } = await confirmTwoFactor(ada, currentTotp(shown.secret));
      // Every other session ends (the caller re-issues its own with the new version).
      expect(sessionVersion).toBe(before.session_version + 1);
      expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
      expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
      const stored = await database.prisma.recoveryCode.findMany({ where: { user_id: ada.id } });
      expect(stored.map((r) => r.code_hash).sort()).toEqual(codes.map(recoveryCodeHash).sort());
      expect(stored.some((r) => codes.some((c) => r.code_hash.includes(c.replace("-", ""))))).toBe(false);
      expect(await twoFactorState(ada)).toMatchObject({ state: "on", recoveryCodesLeft: RECOVERY_CODE_COUNT });
      expect(await database.prisma.auditEvent.count({ where: { action: "user.two_factor_enable", entity_id: String(ada.id) } })).toBe(1);
      await expect(startTwoFactorSetup(session(ada), PASSWORD)).rejects.toMatchObject({ status: 409 });
      // The code that confirmed the set-up is spent too, and the refusal says so (the password was right).
      expect(await attempt({ email: ada.email, password: PASSWORD, code: currentTotp(shown.secret) })).toBe("two_factor_code_used");
      expect(await attempt({ email: ada.email, password: "wrong", code: currentTotp(shown.secret) })).toBe("refused");
    });

    it("signs in only with the password and an unused code; a code sent many times at once is spent once", async () => {
      const secret = await secretOf();
      expect(await attempt({ email: ada.email, password: PASSWORD })).toBe("two_factor_required");
      expect(await attempt({ email: ada.email, password: "wrong" })).toBe("refused");
      await database.prisma.user.update({ where: { id: ada.id }, data: { two_factor_last_step: null } });
      await database.prisma.loginAttempt.deleteMany(); // five tries in flight count as five until settled
      const code = currentTotp(secret);
      const results = await Promise.all(Array.from({ length: 5 }, (_, i) => attempt({ email: ada.email, password: PASSWORD, code }, `198.51.100.${i}`)));
      expect(results.filter((r) => r === "ok")).toHaveLength(1);
      expect(results.filter((r) => r === "two_factor_code_used")).toHaveLength(4);
    });

    it("replaces the recovery codes after the password: the old ones stop working, the new ones sign in once", async () => {
      await expect(newRecoveryCodesFor(session(ada), "wrong")).rejects.toMatchObject({ status: 400, fields: { password: expect.any(Array) } });
      const old = await database.prisma.recoveryCode.findMany({ where: { user_id: ada.id }, select: { code_hash: true } });
      const codes = await newRecoveryCodesFor(session(ada), PASSWORD);
      expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
      const stored = await database.prisma.recoveryCode.findMany({ where: { user_id: ada.id }, select: { code_hash: true } });
      expect(stored.map((r) => r.code_hash).sort()).toEqual(codes.map(recoveryCodeHash).sort());
      expect(stored.some((r) => old.some((o) => o.code_hash === r.code_hash))).toBe(false);
      expect(await database.prisma.auditEvent.count({ where: { action: "user.recovery_codes_replace", entity_id: String(ada.id) } })).toBe(1);
      expect(await attempt({ email: ada.email, password: PASSWORD, code: codes[0]! })).toBe("ok");
      expect(await attempt({ email: ada.email, password: PASSWORD, code: codes[0]! })).toBe("two_factor_code_used");
      expect(await database.prisma.auditEvent.count({ where: { action: "user.recovery_code_use", entity_id: String(ada.id) } })).toBe(1);
    });

    // PGlite runs one statement at a time: no turn-off can commit between the check and the new codes.
    if (kind === "postgres") {
      it("gives no new recovery codes once a turn-off committed after the first check: 409, none written", async () => {
        const kept = await database.prisma.user.findUniqueOrThrow({ where: { id: ada.id }, select: { two_factor_secret: true, two_factor_enabled_at: true, two_factor_last_step: true } });
        const codesBefore = await database.prisma.recoveryCode.findMany({ where: { user_id: ada.id }, select: { code_hash: true } });
        const other = new pg.Client({ connectionString: database.target.kind === "postgres" ? database.target.url : "" });
        await other.connect();
        try {
          // Another session turns two-factor off, not yet committed: the request reads it on and checks the password.
          await other.query("BEGIN");
          await other.query("UPDATE users SET two_factor_enabled_at = NULL, two_factor_secret = NULL WHERE id = $1", [ada.id]);
          await other.query("DELETE FROM recovery_codes WHERE user_id = $1", [ada.id]);
          const asking = newRecoveryCodesFor(session(ada), PASSWORD).then(() => null, (error: unknown) => (AppError.is(error) ? error.status : error));
          const waiting = () => waitingForLocks(other);
          await expect.poll(waiting, { timeout: 10_000 }).toBe(1);
          await other.query("COMMIT");
          expect(await asking).toBe(409);
        } finally {
          await other.end();
        }
        expect(await database.prisma.recoveryCode.count({ where: { user_id: ada.id } })).toBe(0);
        // Back as the next test finds it: on, with its codes.
        await database.prisma.user.update({ where: { id: ada.id }, data: kept });
        await database.prisma.recoveryCode.createMany({ data: codesBefore.map((c) => ({ user_id: ada.id, code_hash: c.code_hash })) });
      });
    }

    it("turns off only with the password and a code", async () => {
      const secret = await secretOf();
      await database.prisma.user.update({ where: { id: ada.id }, data: { two_factor_last_step: null } });
      await expect(turnOffTwoFactor(session(ada), "wrong", currentTotp(secret))).rejects.toMatchObject({ status: 400, fields: { password: expect.any(Array) } });
      await expect(turnOffTwoFactor(session(ada), PASSWORD, "12345x")).rejects.toMatchObject({ status: 400, fields: { code: expect.any(Array) } });
      const before = await database.prisma.user.findUniqueOrThrow({ where: { id: ada.id }, select: { session_version: true } });
      expect(await turnOffTwoFactor(session(ada), PASSWORD, currentTotp(secret))).toBe(before.session_version + 1);
      expect(await twoFactorState(ada)).toEqual({ state: "off", started: false });
      expect(await database.prisma.recoveryCode.count({ where: { user_id: ada.id } })).toBe(0);
      await expect(newRecoveryCodesFor(session(ada), PASSWORD)).rejects.toMatchObject({ status: 409 });
      expect(await attempt({ email: ada.email, password: PASSWORD })).toBe("ok");
    });

    it("confirms a single sign-on session by a sign-in of the last 10 minutes instead of a password", async () => {
      await expect(startTwoFactorSetup(session(ada, "sso", 11 * 60), "")).rejects.toMatchObject({ status: 403, code: "sign_in_again" });
      expect(await twoFactorState(ada)).toEqual({ state: "off", started: false });
      const shown = await startTwoFactorSetup(session(ada, "sso", 60), "");
      expect(shown.secret).toMatch(/^[A-Z2-7]{32}$/);
      await confirmTwoFactor(ada, currentTotp(shown.secret));
      await database.prisma.user.update({ where: { id: ada.id }, data: { two_factor_last_step: null } });
      // Turning off: the same recent sign-in, and a code, counted by the sign-in throttle.
      await expect(turnOffTwoFactor(session(ada, "sso", 11 * 60), "", currentTotp(shown.secret))).rejects.toMatchObject({ status: 403, code: "sign_in_again" });
      await expect(turnOffTwoFactor(session(ada, "sso", 60), "", "12345x")).rejects.toMatchObject({ status: 400, fields: { code: expect.any(Array) } });
      expect(await database.prisma.loginAttempt.count({ where: { email: ada.email, success: false } })).toBe(1);
      await turnOffTwoFactor(session(ada, "sso", 60), "", currentTotp(shown.secret));
      expect(await twoFactorState(ada)).toEqual({ state: "off", started: false });
    });

    it("lets an administrator reset it through the API: 204, audited, the user's sessions end", async () => {
      await confirmTwoFactor(ada, currentTotp((await startTwoFactorSetup(session(ada), PASSWORD)).secret));
      const before = await database.prisma.user.findUniqueOrThrow({ where: { id: ada.id }, select: { session_version: true } });
      actAs(ada);
      const denied = await twoFactorDELETE(apiRequest(`/api/v1/users/${admin.id}/two-factor`, { method: "DELETE" }), routeContext({ id: String(admin.id) }));
      expect(denied.status).toBe(403);
      actAs(admin);
      const response = await twoFactorDELETE(apiRequest(`/api/v1/users/${ada.id}/two-factor`, { method: "DELETE" }), routeContext({ id: String(ada.id) }));
      expect(response.status).toBe(204);
      const after = await database.prisma.user.findUniqueOrThrow({ where: { id: ada.id }, select: { session_version: true, two_factor_secret: true } });
      expect(after).toEqual({ session_version: before.session_version + 1, two_factor_secret: null });
      expect(await database.prisma.auditEvent.count({ where: { action: "user.two_factor_reset", entity_id: String(ada.id), actor_id: admin.id } })).toBe(1);
      const missing = await twoFactorDELETE(apiRequest(`/api/v1/users/999999/two-factor`, { method: "DELETE" }), routeContext({ id: "999999" }));
      expect(missing.status).toBe(404);
      await expect(resetTwoFactor(admin.id, admin)).rejects.toMatchObject({ status: 409, message: SELF_TWO_FACTOR_MESSAGE });
      actAs(null);
    });
  });
}
