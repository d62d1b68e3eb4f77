"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions";
import { requireUser, requireUserForNewToken } from "@/lib/auth/guards";
import { reissueSession } from "@/lib/auth/session-cookie";
import { tokenCreateSchema } from "@/lib/tokens/schema";
import { createToken, revokeToken } from "@/lib/tokens/tokens";
import { changeOwnPassword, setOwnLocale } from "@/lib/users/account";
import { passwordChangeSchema, userLocaleSchema } from "@/lib/users/schema";
import { problem } from "@/lib/i18n/problem";
import { idSchema } from "@/lib/validation/id";

// The signed-in user's own account: their password, their language and their API tokens (never anyone else's).

export const changePasswordAction = action(requireUser, passwordChangeSchema, async ({ current, password }, user) => {
  const version = await changeOwnPassword(user, current, password);
  await reissueSession(version); // this session goes on; every other one has ended
  return { ok: true, data: undefined, message: problem("users.passwordChanged") };
});

export const createTokenAction = action(requireUserForNewToken, tokenCreateSchema, async (input, user) => {
  const { token, row } = await createToken(user, input);
  revalidatePath("/account");
  return { ok: true, data: { token, name: row.name }, message: problem("tokens.made", { name: row.name }) };
});

export const revokeTokenAction = action(requireUser, z.object({ id: idSchema(problem("tokens.idInvalid")) }), async ({ id }, user) => {
  const row = await revokeToken(user, id);
  revalidatePath("/account");
  return { ok: true, data: undefined, message: problem("tokens.revoked", { name: row.name }) };
});

/** The console's language for this user (null: their browser's); the next page is rendered in it. */
export const setLocaleAction = action(requireUser, userLocaleSchema, async ({ locale }, user) => {
  await setOwnLocale(user, locale);
  revalidatePath("/", "layout");
  return { ok: true, data: { locale }, message: problem("users.languageSaved") };
});
