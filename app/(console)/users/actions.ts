"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions";
import { requireAdmin } from "@/lib/auth/guards";
import { createUser, resetPassword, resetTwoFactor, unlinkSso, updateUser } from "@/lib/users/mutations";
import { ROLES, userBranchesSchema, userCreateSchema, userIdSchema } from "@/lib/users/schema";

// Administrators only: each action checks the role itself (requireAdmin), whatever the page shows.

export const createUserAction = action(requireAdmin, userCreateSchema, async (input, admin) => {
  const { user, setPasswordUrl } = await createUser(input, admin);
  revalidatePath("/users");
  return { ok: true, data: { id: user.id, setPasswordUrl }, message: `User ${user.email} created.` };
});

export const setBranchesAction = action(requireAdmin, userBranchesSchema, async ({ id, branch_ids }, admin) => {
  const user = await updateUser(id, { branch_ids }, admin);
  revalidatePath("/users");
  const what = user.branch_ids === null ? "every branch" : `${user.branch_ids.length} branch${user.branch_ids.length === 1 ? "" : "es"}`;
  return { ok: true, data: undefined, message: `${user.name} sees ${what} from their next request on.` };
});

export const changeRoleAction = action(requireAdmin, z.object({ id: userIdSchema, role: z.enum(ROLES) }), async ({ id, role }, admin) => {
  const user = await updateUser(id, { role }, admin);
  revalidatePath("/users");
  return { ok: true, data: undefined, message: `${user.name} is ${role === "admin" ? "an administrator" : "staff"} now.` };
});

export const setActiveAction = action(requireAdmin, z.object({ id: userIdSchema, active: z.boolean() }), async ({ id, active }, admin) => {
  const user = await updateUser(id, { active }, admin);
  revalidatePath("/users");
  return {
    ok: true,
    data: undefined,
    message: active ? `${user.name} is active again (with a new sign-in).` : `${user.name} is deactivated: their sessions and tokens stopped working.`,
  };
});

export const resetPasswordAction = action(requireAdmin, z.object({ id: userIdSchema }), async ({ id }, admin) => {
  const { user, setPasswordUrl } = await resetPassword(id, admin);
  return { ok: true, data: { setPasswordUrl, name: user.name }, message: `A set-password link for ${user.name} was made.` };
});

export const resetTwoFactorAction = action(requireAdmin, z.object({ id: userIdSchema }), async ({ id }, admin) => {
  const user = await resetTwoFactor(id, admin);
  revalidatePath("/users");
  return { ok: true, data: undefined, message: `${user.name}'s two-factor sign-in is off and their sessions ended: they sign in with their password alone.` };
});

export const unlinkSsoAction = action(requireAdmin, z.object({ id: userIdSchema }), async ({ id }, admin) => {
  const user = await unlinkSso(id, admin);
  revalidatePath("/users");
  return { ok: true, data: undefined, message: `${user.name}'s account is unlinked from single sign-on and their sessions ended: the next single sign-on with ${user.email} links it.` };
});
