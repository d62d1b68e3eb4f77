"use server";

import { revalidatePath } from "next/cache";
import { action } from "@/lib/actions";
import { problem } from "@/lib/i18n/problem";
import { requireSession, requireSessionForTwoFactorSetUp } from "@/lib/auth/guards";
import { reissueSession } from "@/lib/auth/session-cookie";
import { confirmTwoFactor, newRecoveryCodesFor, startTwoFactorSetup, turnOffTwoFactor } from "@/lib/auth/two-factor";
import { twoFactorConfirmSchema, twoFactorOffSchema, twoFactorStartSchema } from "@/lib/validation/auth";

// The signed-in user's own two-factor codes (an administrator resets someone else's on /users).
// These are the actions a user who still has to set up codes may run, hence their own guard
// (docs/decisions/0030-sign-in-two-factor-and-sso.md).

/** The secret and its QR code are in this answer only: the page never shows them. */
export const startTwoFactorAction = action(requireSessionForTwoFactorSetUp, twoFactorStartSchema, async ({ password }, principal) => {
  const { secret, qr } = await startTwoFactorSetup(principal, password);
  return { ok: true, data: { secret, qr } };
});

export const confirmTwoFactorAction = action(requireSessionForTwoFactorSetUp, twoFactorConfirmSchema, async ({ code }, principal) => {
  const { recoveryCodes, sessionVersion } = await confirmTwoFactor(principal.user, code);
  await reissueSession(sessionVersion); // this session goes on; every other one has ended
  return { ok: true, data: { recoveryCodes }, message: problem("users.twoFactorOn") };
});

export const turnOffTwoFactorAction = action(requireSessionForTwoFactorSetUp, twoFactorOffSchema, async ({ password, code }, principal) => {
  const sessionVersion = await turnOffTwoFactor(principal, password, code);
  await reissueSession(sessionVersion);
  revalidatePath("/account/two-factor");
  return { ok: true, data: undefined, message: problem("users.twoFactorOff") };
});

/** New recovery codes, in this answer only, after the password (or a recent single sign-on). */
export const newRecoveryCodesAction = action(requireSession, twoFactorStartSchema, async ({ password }, principal) => {
  const recoveryCodes = await newRecoveryCodesFor(principal, password);
  revalidatePath("/account/two-factor");
  return { ok: true, data: { recoveryCodes }, message: problem("users.recoveryCodesReplaced") };
});
