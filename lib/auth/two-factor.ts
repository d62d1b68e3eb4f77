import "server-only";
import QRCode from "qrcode";
import { requestInfo } from "@/lib/audit/context";
import { prisma } from "@/lib/db/client";
import { AppError, conflict } from "@/lib/errors";
import { problem } from "@/lib/i18n/problem";
import type { SessionUser } from "./permissions";
import type { Principal } from "./principal";
import { verifyPassword } from "./password";
import { claimAttempt, type PasswordCheck, recordLocked, settleAttempt } from "./throttle";
import { isTotpShape, newRecoveryCodes, newTotpSecret, recoveryCodeHash, totpStep, totpUri } from "./totp";
import { sql } from "@/lib/db/sql";
import { transaction, type Tx } from "@/lib/db/transaction";

// Two-factor codes of password sign-ins: set up and turned off by the user on /account, checked by
// the one credentials path (sign-in.ts), reset by administrators (lib/users/mutations.ts).
// docs/decisions/0030-sign-in-two-factor-and-sso.md

/**
 * Spends a code of an enrolled user: a current TOTP code whose time step is later than the last
 * one accepted, or an unused recovery code. The conditional update makes a replay lose a race too.
 * `used`: a right code already spent, which the sign-in form names (the password was right).
 */
export async function spendSecondFactor(tx: Tx, user: { id: number; two_factor_secret: string | null }, code: string): Promise<"code" | "recovery" | "used" | null> {
  const typed = code.replace(/\s/g, "");
  if (!user.two_factor_secret || typed === "") return null;
  if (isTotpShape(typed)) {
    const step = totpStep(user.two_factor_secret, typed);
    if (step === null) return null;
    const { count } = await tx.user.updateMany({
      where: { id: user.id, two_factor_enabled_at: { not: null }, OR: [{ two_factor_last_step: null }, { two_factor_last_step: { lt: step } }] },
      data: { two_factor_last_step: step },
    });
    return count === 1 ? "code" : "used";
  }
  const code_hash = recoveryCodeHash(typed);
  const { count } = await tx.recoveryCode.updateMany({ where: { user_id: user.id, code_hash, used_at: null }, data: { used_at: new Date() } });
  if (count === 1) return "recovery";
  return (await tx.recoveryCode.count({ where: { user_id: user.id, code_hash } })) > 0 ? "used" : null;
}

export type TwoFactorState = { state: "off"; started: boolean } | { state: "on"; since: Date; recoveryCodesLeft: number };

/** What /account/two-factor shows the user: never the secret, which only the set-up's answer carries (after the password). */
export async function twoFactorState(user: Pick<SessionUser, "id">): Promise<TwoFactorState> {
  const db = await prisma();
  const row = await db.user.findUnique({ where: { id: user.id }, select: { two_factor_secret: true, two_factor_enabled_at: true } });
  if (!row?.two_factor_enabled_at) return { state: "off", started: Boolean(row?.two_factor_secret) };
  const recoveryCodesLeft = await db.recoveryCode.count({ where: { user_id: user.id, used_at: null } });
  return { state: "on", since: row.two_factor_enabled_at, recoveryCodesLeft };
}

/** How long a single sign-on session's sign-in stands in for a password it does not have. */
export const SSO_RECENT_SIGN_IN_SECONDS = 10 * 60;

/** Whether a single sign-on session signed in recently enough (the cookie's `sat`). */
export function recentSignIn(principal: Pick<Principal, "signedInAt">, now = Date.now()): boolean {
  return principal.signedInAt !== null && now / 1000 - principal.signedInAt <= SSO_RECENT_SIGN_IN_SECONDS;
}

/**
 * Who is at the keyboard, before the secret is shown or codes are turned off: a password session
 * types its password; a single sign-on session, whose user has no password they know, signed in at
 * the provider within the window. `code` (turning off) is judged in the same try. Whatever is
 * typed goes through the sign-in throttle, as a password change's current password does.
 */
async function confirmPerson(principal: Principal, password: string, during: PasswordCheck, code?: () => Promise<boolean>): Promise<void> {
  const { user } = principal;
  const sso = principal.via === "sso";
  if (sso && !recentSignIn(principal)) {
    throw new AppError(403, "sign_in_again", problem("auth.signInAgain", { minutes: SSO_RECENT_SIGN_IN_SECONDS / 60 }), undefined, undefined, { sign_in_again: true });
  }
  if (sso && !code) return;
  if (!sso && password === "") throw new AppError(400, "invalid_input", problem("signIn.enterPassword"), { password: [problem("signIn.enterPassword")] });
  const request = await requestInfo();
  const { wait, attempt } = await claimAttempt(user.email, request);
  if (!attempt) {
    await recordLocked(user.email, request, wait);
    throw new AppError(429, "too_many_attempts", problem("auth.tooManyAttempts"), undefined, wait);
  }
  const row = sso ? null : await (await prisma()).user.findUnique({ where: { id: user.id }, select: { password_hash: true } });
  const passwordOk = sso || (row !== null && (await verifyPassword(password, row.password_hash)));
  const allOk = passwordOk && (code ? await code() : true);
  await settleAttempt(attempt, { email: user.email, success: allOk, user }, request, "password-check", during);
  if (!passwordOk) throw new AppError(400, "invalid_input", problem("auth.wrongPassword"), { password: [problem("auth.wrongPassword")] });
  if (!allOk) throw new AppError(400, "invalid_input", WRONG_OR_USED, { code: [WRONG_OR_USED] });
}

/** A new secret to scan, after the person is confirmed; an unconfirmed earlier one is replaced. */
export async function startTwoFactorSetup(principal: Principal, password: string): Promise<{ secret: string; qr: string }> {
  const { user } = principal;
  const db = await prisma();
  const on = await db.user.findUnique({ where: { id: user.id }, select: { two_factor_enabled_at: true } });
  if (on?.two_factor_enabled_at) throw alreadyOn();
  await confirmPerson(principal, password, "two_factor_setup");
  const secret = newTotpSecret();
  const { count } = await transaction((tx) =>
    tx.user.updateMany({ where: { id: user.id, two_factor_enabled_at: null }, data: { two_factor_secret: secret, two_factor_last_step: null } }),
  );
  if (count === 0) throw alreadyOn();
  const svg = await QRCode.toString(totpUri(secret, user.email), { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return { secret, qr: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}` };
}

const alreadyOn = () => conflict(problem("auth.twoFactorOnTurnOffFirst"));
const WRONG_OR_USED = problem("auth.wrongOrUsedCode");

const WRONG_CODE = problem("auth.wrongCode");

/**
 * Turns two-factor on with a current code of the new secret; returns the recovery codes, shown
 * once, and the user's new session version: every other session ends, as after a password change.
 */
export async function confirmTwoFactor(user: Pick<SessionUser, "id" | "email">, code: string): Promise<{ recoveryCodes: string[]; sessionVersion: number }> {
  const codes = newRecoveryCodes();
  return transaction(async (tx) => {
    const row = await tx.user.findUnique({ where: { id: user.id }, select: { two_factor_secret: true, two_factor_enabled_at: true } });
    if (!row?.two_factor_secret) throw conflict(problem("auth.startSetUpAgain"));
    if (row.two_factor_enabled_at) throw conflict(problem("auth.twoFactorAlreadyOn"));
    const step = isTotpShape(code) ? totpStep(row.two_factor_secret, code) : null;
    if (step === null) throw new AppError(400, "invalid_input", WRONG_CODE, { code: [WRONG_CODE] });
    const { session_version } = await tx.user.update({
      where: { id: user.id },
      data: { two_factor_enabled_at: new Date(), two_factor_last_step: step, session_version: { increment: 1 } },
      select: { session_version: true },
    });
    await replaceRecoveryCodes(tx, user.id, codes);
    await tx.audit({ action: "user.two_factor_enable", actor: user, entity: "user", entityId: user.id });
    return { recoveryCodes: codes, sessionVersion: session_version };
  });
}

async function replaceRecoveryCodes(tx: Tx, userId: number, codes: string[]) {
  await tx.recoveryCode.deleteMany({ where: { user_id: userId } });
  await tx.recoveryCode.createMany({ data: codes.map((c) => ({ user_id: userId, code_hash: recoveryCodeHash(c) })) });
}

/** Ten new recovery codes in place of the old ones (all of which stop working), after the person is confirmed; shown once. */
export async function newRecoveryCodesFor(principal: Principal, password: string): Promise<string[]> {
  const { user } = principal;
  const row = await (await prisma()).user.findUnique({ where: { id: user.id }, select: { two_factor_enabled_at: true } });
  if (!row?.two_factor_enabled_at) throw conflict(problem("auth.twoFactorOffNoCodes"));
  await confirmPerson(principal, password, "new_recovery_codes");
  const codes = newRecoveryCodes();
  const request = await requestInfo();
  await transaction(async (tx) => {
    // Checked again with the user's row locked: a turn-off committed since the first read leaves no codes to replace.
    const [still] = await tx.query<{ on: boolean }>(sql`SELECT two_factor_enabled_at IS NOT NULL AS on FROM users WHERE id = ${user.id} FOR UPDATE`);
    if (!still?.on) throw conflict(problem("auth.twoFactorOffNoCodes"));
    await replaceRecoveryCodes(tx, user.id, codes);
    await tx.audit({ action: "user.recovery_codes_replace", actor: user, entity: "user", entityId: user.id, request });
  });
  return codes;
}

/** Clears the secret and the recovery codes (in `tx`, with the caller's audit event). */
export async function clearTwoFactor(tx: Tx, userId: number) {
  await tx.recoveryCode.deleteMany({ where: { user_id: userId } });
  await tx.user.update({ where: { id: userId }, data: { two_factor_secret: null, two_factor_enabled_at: null, two_factor_last_step: null } });
}

/**
 * Turning it off asks for the person (confirmPerson) and a code; returns the user's new session
 * version: every other session ends.
 */
export async function turnOffTwoFactor(principal: Principal, password: string, code: string): Promise<number> {
  const { user } = principal;
  const db = await prisma();
  const row = await db.user.findUnique({ where: { id: user.id }, select: { id: true, two_factor_secret: true, two_factor_enabled_at: true } });
  if (!row?.two_factor_enabled_at) throw conflict(problem("auth.twoFactorAlreadyOff"));
  await confirmPerson(principal, password, "two_factor_turn_off", async () => ["code", "recovery"].includes((await transaction((tx) => spendSecondFactor(tx, row, code))) ?? ""));
  const request = await requestInfo();
  return transaction(async (tx) => {
    await clearTwoFactor(tx, user.id);
    const { session_version } = await tx.user.update({ where: { id: user.id }, data: { session_version: { increment: 1 } }, select: { session_version: true } });
    await tx.audit({ action: "user.two_factor_disable", actor: user, entity: "user", entityId: user.id, request });
    return session_version;
  });
}
