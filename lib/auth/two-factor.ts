import "server-only";
import QRCode from "qrcode";
import { audit } from "@/lib/audit/log";
import { requestInfo } from "@/lib/audit/context";
import { prisma } from "@/lib/db/client";
import { AppError, conflict } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { SessionUser } from "./permissions";
import { verifyPassword } from "./password";
import { claimAttempt, recordLocked, settleAttempt } from "./throttle";
import { isTotpShape, newRecoveryCodes, newTotpSecret, recoveryCodeHash, totpStep, totpUri } from "./totp";

// Two-factor codes of password sign-ins: set up and turned off by the user on /account, checked by
// the one credentials path (sign-in.ts), reset by administrators (lib/users/mutations.ts).
// docs/decisions/0030-sign-in-two-factor-and-sso.md

type Db = Prisma.TransactionClient | Awaited<ReturnType<typeof prisma>>;

/**
 * Spends a code of an enrolled user: a current TOTP code whose time step is later than the last
 * one accepted, or an unused recovery code. The conditional update makes a replay lose a race too.
 */
export async function spendSecondFactor(db: Db, user: { id: number; two_factor_secret: string | null }, code: string): Promise<"code" | "recovery" | null> {
  const typed = code.replace(/\s/g, "");
  if (!user.two_factor_secret || typed === "") return null;
  if (isTotpShape(typed)) {
    const step = totpStep(user.two_factor_secret, typed);
    if (step === null) return null;
    const { count } = await db.user.updateMany({
      where: { id: user.id, two_factor_enabled_at: { not: null }, OR: [{ two_factor_last_step: null }, { two_factor_last_step: { lt: step } }] },
      data: { two_factor_last_step: step },
    });
    return count === 1 ? "code" : null;
  }
  const { count } = await db.recoveryCode.updateMany({
    where: { user_id: user.id, code_hash: recoveryCodeHash(typed), used_at: null },
    data: { used_at: new Date() },
  });
  return count === 1 ? "recovery" : null;
}

export type TwoFactorState =
  | { state: "off" }
  | { state: "setting-up"; secret: string; qr: string }
  | { state: "on"; since: Date; recoveryCodesLeft: number };

/** What /account/two-factor shows the user. The QR code is an SVG made here, shown as a data: image (the pages' CSP allows those). */
export async function twoFactorState(user: Pick<SessionUser, "id" | "email">): Promise<TwoFactorState> {
  const db = await prisma();
  const row = await db.user.findUnique({ where: { id: user.id }, select: { two_factor_secret: true, two_factor_enabled_at: true } });
  if (!row?.two_factor_secret) return { state: "off" };
  if (!row.two_factor_enabled_at) {
    const svg = await QRCode.toString(totpUri(row.two_factor_secret, user.email), { type: "svg", errorCorrectionLevel: "M", margin: 2 });
    return { state: "setting-up", secret: row.two_factor_secret, qr: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}` };
  }
  const recoveryCodesLeft = await db.recoveryCode.count({ where: { user_id: user.id, used_at: null } });
  return { state: "on", since: row.two_factor_enabled_at, recoveryCodesLeft };
}

/** A new secret to scan; an unconfirmed earlier one is replaced. */
export async function startTwoFactorSetup(user: Pick<SessionUser, "id">): Promise<void> {
  const { count } = await (await prisma()).user.updateMany({
    where: { id: user.id, two_factor_enabled_at: null },
    data: { two_factor_secret: newTotpSecret(), two_factor_last_step: null },
  });
  if (count === 0) throw conflict("Two-factor sign-in is already on: turn it off first to set it up again.");
}

const WRONG_CODE = "That code is not right: type the 6 digits your app shows now.";

/** Turns two-factor on with a current code of the new secret; returns the recovery codes, shown once. */
export async function confirmTwoFactor(user: Pick<SessionUser, "id" | "email">, code: string): Promise<string[]> {
  const db = await prisma();
  const codes = newRecoveryCodes();
  return db.$transaction(async (tx) => {
    const row = await tx.user.findUnique({ where: { id: user.id }, select: { two_factor_secret: true, two_factor_enabled_at: true } });
    if (!row?.two_factor_secret) throw conflict("Start the set-up again: there is no code to confirm.");
    if (row.two_factor_enabled_at) throw conflict("Two-factor sign-in is already on.");
    const step = isTotpShape(code) ? totpStep(row.two_factor_secret, code) : null;
    if (step === null) throw new AppError(400, "invalid_input", WRONG_CODE, { code: [WRONG_CODE] });
    await tx.user.update({ where: { id: user.id }, data: { two_factor_enabled_at: new Date(), two_factor_last_step: step } });
    await tx.recoveryCode.deleteMany({ where: { user_id: user.id } });
    await tx.recoveryCode.createMany({ data: codes.map((c) => ({ user_id: user.id, code_hash: recoveryCodeHash(c) })) });
    await audit(tx, { action: "user.two_factor_enable", actor: user, entity: "user", entityId: user.id });
    return codes;
  });
}

/** Clears the secret and the recovery codes (in `tx`, with the caller's audit event). */
export async function clearTwoFactor(tx: Prisma.TransactionClient, userId: number) {
  await tx.recoveryCode.deleteMany({ where: { user_id: userId } });
  await tx.user.update({ where: { id: userId }, data: { two_factor_secret: null, two_factor_enabled_at: null, two_factor_last_step: null } });
}

/** Turning it off asks for the password (through the sign-in throttle, as a password change does) and a code. */
export async function turnOffTwoFactor(user: Pick<SessionUser, "id" | "email">, password: string, code: string): Promise<void> {
  const request = await requestInfo();
  const { wait, attempt } = await claimAttempt(user.email, request);
  if (!attempt) {
    await recordLocked(user.email, request, wait);
    throw new AppError(429, "too_many_attempts", "Too many wrong passwords or codes. Try again later.", undefined, wait);
  }
  const db = await prisma();
  const row = await db.user.findUnique({ where: { id: user.id }, select: { id: true, password_hash: true, two_factor_secret: true, two_factor_enabled_at: true } });
  if (!row?.two_factor_enabled_at) {
    await settleAttempt(attempt, { email: user.email, success: true, user }, request, "password-check");
    throw conflict("Two-factor sign-in is already off.");
  }
  const passwordOk = await verifyPassword(password, row.password_hash);
  const codeOk = passwordOk && (await spendSecondFactor(db, row, code)) !== null;
  await settleAttempt(attempt, { email: user.email, success: codeOk, user }, request, "password-check");
  if (!passwordOk) throw new AppError(400, "invalid_input", "Your password is not right.", { password: ["Your password is not right."] });
  if (!codeOk) throw new AppError(400, "invalid_input", "That code is not right, or was already used.", { code: ["That code is not right, or was already used."] });
  await db.$transaction(async (tx) => {
    await clearTwoFactor(tx, user.id);
    await audit(tx, { action: "user.two_factor_disable", actor: user, entity: "user", entityId: user.id, request });
  });
}
