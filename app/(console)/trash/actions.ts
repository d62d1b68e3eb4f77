"use server";

import { revalidatePath } from "next/cache";
import { getProblemWords } from "@/lib/i18n/server";
import { z } from "zod";
import { action } from "@/lib/actions";
import { requireAdmin } from "@/lib/auth/guards";
import { AppError } from "@/lib/errors";
import { MAX_SELECTION } from "@/lib/subscribers/bulk-schema";
import { problem } from "@/lib/i18n/problem";
import { TRASH_KINDS, type TrashKind } from "@/lib/trash/filters";
import { eraseFromTrash, restoreFromTrash } from "@/lib/trash/manage";
import { idSchema } from "@/lib/validation/id";

// Restore and Delete forever, on one row or a selection (administrators; the guard runs first).
// Each record is its own transaction and audit event: one that cannot be restored (a name taken)
// is told by name, the others go ahead.

const schema = z.object({
  kind: z.enum(TRASH_KINDS),
  ids: z.array(idSchema()).min(1, problem("trash.selectAtLeastOne")).max(MAX_SELECTION, problem("trash.selectAtMost", { max: MAX_SELECTION })),
});

type Outcome = { done: number[]; refused: { id: number; message: string }[] };

async function each(ids: number[], run: (id: number) => Promise<unknown>): Promise<Outcome> {
  const outcome: Outcome = { done: [], refused: [] };
  for (const id of [...new Set(ids)]) {
    try {
      await run(id);
      outcome.done.push(id);
    } catch (error) {
      if (!AppError.is(error) || (error.status !== 404 && error.status !== 409)) throw error;
      outcome.refused.push({ id, message: error.message });
    }
  }
  return outcome;
}

/** The outcome in the caller's words: how many were done, then each refusal, sentence by sentence. */
async function answer(outcome: Outcome, kind: TrashKind, verb: "restored" | "erased") {
  revalidatePath("/trash");
  revalidatePath("/subscribers");
  revalidatePath("/branches");
  const words = (await getProblemWords());
  const refused = outcome.refused.map((r) => words(r.message)).join(" ");
  if (outcome.done.length === 0) return { ok: false as const, formError: refused || problem("trash.nothingDone") };
  const done = words(problem(verb === "restored" ? "trash.restored" : "trash.erased", { kind, count: outcome.done.length }));
  return { ok: true as const, data: outcome, message: refused ? `${done} ${refused}` : done };
}

export const restoreTrashAction = action(requireAdmin, schema, async ({ kind, ids }, user) =>
  answer(await each(ids, (id) => restoreFromTrash(kind, id, user)), kind, "restored"),
);

export const eraseTrashAction = action(requireAdmin, schema, async ({ kind, ids }, user) =>
  answer(await each(ids, (id) => eraseFromTrash(kind, id, user)), kind, "erased"),
);
