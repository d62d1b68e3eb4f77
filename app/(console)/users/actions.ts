"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions";
import { problem } from "@/lib/i18n/problem";
import { requireAdmin } from "@/lib/auth/guards";
import { createUser, resetPassword, resetTwoFactor, unlinkSso, updateUser } from "@/lib/users/mutations";
import { ROLES, userBranchesSchema, userCreateSchema, userIdSchema } from "@/lib/users/schema";

// Administrators only: each action checks the role itself (requireAdmin), whatever the page shows.

export const createUserAction = action(requireAdmin, userCreateSchema, async (input, admin) => {
  const { user, setPasswordUrl } = await createUser(input, admin);
  revalidatePath("/users");
  return { ok: true, data: { id: user.id, setPasswordUrl }, message: problem("users.created", { email: user.email }) };
});

export const setBranchesAction = action(requireAdmin, userBranchesSchema, async ({ id, branch_ids }, admin) => {
  const user = await updateUser(id, { branch_ids }, admin);
  revalidatePath("/users");
  const message = user.branch_ids === null ? problem("users.seesEveryBranch", { name: user.name }) : problem("users.seesBranches", { name: user.name, count: user.branch_ids.length });
  return { ok: true, data: undefined, message };
});

export const changeRoleAction = action(requireAdmin, z.object({ id: userIdSchema, role: z.enum(ROLES) }), async ({ id, role }, admin) => {
  const user = await updateUser(id, { role }, admin);
  revalidatePath("/users");
  return { ok: true, data: undefined, message: problem("users.roleChanged", { name: user.name, role }) };
});

export const setActiveAction = action(requireAdmin, z.object({ id: userIdSchema, active: z.boolean() }), async ({ id, active }, admin) => {
  const user = await updateUser(id, { active }, admin);
  revalidatePath("/users");
  return {
    ok: true,
    data: undefined,
    message: active ? problem("users.reactivated", { name: user.name }) : problem("users.deactivated", { name: user.name }),
  };
});

export const resetPasswordAction = action(requireAdmin, z.object({ id: userIdSchema }), async ({ id }, admin) => {
  const { user, setPasswordUrl } = await resetPassword(id, admin);
  return { ok: true, data: { setPasswordUrl, name: user.name }, message: problem("users.linkMade", { name: user.name }) };
});

export const resetTwoFactorAction = action(requireAdmin, z.object({ id: userIdSchema }), async ({ id }, admin) => {
  const user = await resetTwoFactor(id, admin);
  revalidatePath("/users");
  return { ok: true, data: undefined, message: problem("users.twoFactorReset", { name: user.name }) };
});

export const unlinkSsoAction = action(requireAdmin, z.object({ id: userIdSchema }), async ({ id }, admin) => {
  const user = await unlinkSso(id, admin);
  revalidatePath("/users");
  return { ok: true, data: undefined, message: problem("users.ssoUnlinked", { name: user.name, email: user.email }) };
});
