"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions";
import { requireSessionForTwoFactorSetUp } from "@/lib/auth/guards";
import { confirmTwoFactor, startTwoFactorSetup, turnOffTwoFactor } from "@/lib/auth/two-factor";
import { twoFactorConfirmSchema, twoFactorOffSchema } from "@/lib/validation/auth";

// The signed-in user's own two-factor codes (an administrator resets someone else's on /users).
// These are the actions a user who still has to set up codes may run, hence their own guard
// (docs/decisions/0030-sign-in-two-factor-and-sso.md).

export const startTwoFactorAction = action(requireSessionForTwoFactorSetUp, z.object({}), async (_input, { user }) => {
  await startTwoFactorSetup(user);
  revalidatePath("/account/two-factor");
  return { ok: true, data: undefined };
});

export const confirmTwoFactorAction = action(requireSessionForTwoFactorSetUp, twoFactorConfirmSchema, async ({ code }, { user }) => {
  const recoveryCodes = await confirmTwoFactor(user, code);
  return { ok: true, data: { recoveryCodes }, message: "Two-factor sign-in is on." };
});

export const turnOffTwoFactorAction = action(requireSessionForTwoFactorSetUp, twoFactorOffSchema, async ({ password, code }, { user }) => {
  await turnOffTwoFactor(user, password, code);
  revalidatePath("/account/two-factor");
  return { ok: true, data: undefined, message: "Two-factor sign-in is off." };
});
