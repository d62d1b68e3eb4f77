"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions";
import { requireAdmin } from "@/lib/auth/guards";
import { AppError } from "@/lib/errors";
import { MAX_SELECTION } from "@/lib/subscribers/bulk-schema";
import { TRASH_KINDS } from "@/lib/trash/filters";
import { eraseFromTrash, restoreFromTrash } from "@/lib/trash/manage";
import { idSchema } from "@/lib/validation/id";

// Restore and Delete forever, on one row or a selection (administrators; the guard runs first).
// Each record is its own transaction and audit event: one that cannot be restored (a name taken)
// is told by name, the others go ahead.

const schema = z.object({
  kind: z.enum(TRASH_KINDS),
  ids: z.array(idSchema()).min(1, "Select at least one record.").max(MAX_SELECTION, `Select at most ${MAX_SELECTION} records.`),
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

const records = (kind: string, n: number) => `${n.toLocaleString("en-GB")} ${kind === "branches" ? (n === 1 ? "branch" : "branches") : n === 1 ? "subscriber" : "subscribers"}`;

function answer(outcome: Outcome, kind: string, verb: string) {
  revalidatePath("/trash");
  revalidatePath("/subscribers");
  revalidatePath("/branches");
  const refused = outcome.refused.map((r) => r.message).join(" ");
  if (outcome.done.length === 0) return { ok: false as const, formError: refused || "Nothing was done." };
  return { ok: true as const, data: outcome, message: `${records(kind, outcome.done.length)} ${verb}.${refused ? ` ${refused}` : ""}` };
}

export const restoreTrashAction = action(requireAdmin, schema, async ({ kind, ids }, user) =>
  answer(await each(ids, (id) => restoreFromTrash(kind, id, user)), kind, "restored"),
);

export const eraseTrashAction = action(requireAdmin, schema, async ({ kind, ids }, user) =>
  answer(await each(ids, (id) => eraseFromTrash(kind, id, user)), kind, "deleted forever"),
);
