"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions";
import { problem } from "@/lib/i18n/problem";
import { requireAdmin } from "@/lib/auth/guards";
import { createBranch, deleteBranch, updateBranch } from "@/lib/branches/mutations";
import { branchSubscriberCount } from "@/lib/branches/queries";
import { branchIdSchema, branchInputSchema } from "@/lib/branches/schema";

// Each action checks the role itself (requireAdmin): hiding the buttons from staff is not the protection.

export const createBranchAction = action(requireAdmin, branchInputSchema, async ({ name }, user) => {
  const branch = await createBranch(name, user);
  revalidatePath("/branches");
  return { ok: true, data: { id: branch.id }, message: problem("branches.created", { name: branch.name }) };
});

export const updateBranchAction = action(
  requireAdmin,
  branchInputSchema.extend({ id: branchIdSchema }),
  async ({ id, name }, user) => {
    const branch = await updateBranch(id, name, user);
    revalidatePath("/branches");
    return { ok: true, data: { id: branch.id }, message: problem("branches.saved", { name: branch.name }) };
  },
);

/** For the delete confirmation, when it opens: how many subscribers would lose their branch. */
export const countBranchSubscribersAction = action(requireAdmin, z.object({ id: branchIdSchema }), async ({ id }, user) => ({
  ok: true,
  data: { subscribers: await branchSubscriberCount(user.scope, id) },
}));

export const deleteBranchAction = action(requireAdmin, z.object({ id: branchIdSchema }), async ({ id }, user) => {
  const { name, detached } = await deleteBranch(id, user);
  revalidatePath("/branches");
  revalidatePath("/subscribers");
  return { ok: true, data: undefined, message: problem("branches.deleted", { name, detached }) };
});
