"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions";
import { requireUser, requireUserForNewToken } from "@/lib/auth/guards";
import { reissueSession } from "@/lib/auth/session-cookie";
import { tokenCreateSchema } from "@/lib/tokens/schema";
import { createToken, revokeToken } from "@/lib/tokens/tokens";
import { changeOwnPassword } from "@/lib/users/account";
import { passwordChangeSchema } from "@/lib/users/schema";
import { idSchema } from "@/lib/validation/id";

// The signed-in user's own account: their password and their API tokens (never anyone else's).

export const changePasswordAction = action(requireUser, passwordChangeSchema, async ({ current, password }, user) => {
  const version = await changeOwnPassword(user, current, password);
  await reissueSession(version); // this session goes on; every other one has ended
  return { ok: true, data: undefined, message: "Password changed. You were signed out everywhere else." };
});

export const createTokenAction = action(requireUserForNewToken, tokenCreateSchema, async (input, user) => {
  const { token, row } = await createToken(user, input);
  revalidatePath("/account");
  return { ok: true, data: { token, name: row.name }, message: `Token “${row.name}” made.` };
});

export const revokeTokenAction = action(requireUser, z.object({ id: idSchema("The token id must be a whole number of 1 or more.") }), async ({ id }, user) => {
  const row = await revokeToken(user, id);
  revalidatePath("/account");
  return { ok: true, data: undefined, message: `Token “${row.name}” revoked.` };
});
