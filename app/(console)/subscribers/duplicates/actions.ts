"use server";

import { revalidatePath } from "next/cache";
import { action } from "@/lib/actions";
import { requireAdmin, requireUser } from "@/lib/auth/guards";
import { branchScope } from "@/lib/auth/scope";
import { dismissBodySchema } from "@/lib/subscribers/duplicate-schema";
import { dismissDuplicates, undoDismissal } from "@/lib/subscribers/dismissals";

// The same functions and bodies as POST /api/v1/subscribers/duplicates/dismiss (and its undo).

export const dismissDuplicatesAction = action(requireUser, dismissBodySchema, async ({ ids }, user) => {
  const result = await dismissDuplicates(branchScope(user), ids, user);
  revalidatePath("/subscribers");
  return { ok: true, data: result, message: `Marked ${ids.length} subscribers as not duplicates of each other.` };
});

export const undoDismissalAction = action(requireAdmin, dismissBodySchema, async ({ ids }, user) => {
  const result = await undoDismissal(branchScope(user), ids, user);
  revalidatePath("/subscribers");
  return { ok: true, data: result, message: result.pairs.length ? "They count as possible duplicates again." : "They were not marked as not duplicates." };
});

