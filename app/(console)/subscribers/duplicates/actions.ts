"use server";

import { revalidatePath } from "next/cache";
import { action } from "@/lib/actions";
import { requireAdmin, requireUser } from "@/lib/auth/guards";
import { z } from "zod";
import { problem } from "@/lib/i18n/problem";
import { dismissBodySchema, mergeBodySchema } from "@/lib/subscribers/duplicate-schema";
import { dismissDuplicates, undoDismissal } from "@/lib/subscribers/dismissals";
import { mergeSubscribers, undoMerge } from "@/lib/subscribers/merge";

// The same functions and bodies as POST /api/v1/subscribers/duplicates/dismiss (and its undo),
// /api/v1/subscribers/merge and /api/v1/subscribers/merges/{merge_id}/undo.

export const dismissDuplicatesAction = action(requireUser, dismissBodySchema, async ({ ids }, user) => {
  const result = await dismissDuplicates(user.scope, ids, user);
  revalidatePath("/subscribers");
  return { ok: true, data: result, message: problem("duplicates.dismissed", { count: ids.length }) };
});

export const undoDismissalAction = action(requireAdmin, dismissBodySchema, async ({ ids }, user) => {
  const result = await undoDismissal(user.scope, ids, user);
  revalidatePath("/subscribers");
  return { ok: true, data: result, message: problem(result.pairs.length ? "duplicates.undismissed" : "duplicates.notDismissed") };
});

export const mergeAction = action(requireAdmin, mergeBodySchema, async (input, user) => {
  const { survivor, merge_id } = await mergeSubscribers(user.scope, input, user);
  revalidatePath("/subscribers");
  return { ok: true, data: { survivor_id: survivor.id, merge_id }, message: problem("merge.merged", { count: input.merged_ids.length + 1, id: survivor.id }) };
});

export const undoMergeAction = action(requireAdmin, z.object({ merge_id: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, problem("merge.notAMerge")) }), async ({ merge_id }, user) => {
  const survivor = await undoMerge(user.scope, merge_id, user);
  revalidatePath("/subscribers");
  return { ok: true, data: { survivor_id: survivor.id }, message: problem("merge.undone") };
});
