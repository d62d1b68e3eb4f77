"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions";
import { requireUser } from "@/lib/auth/guards";
import { problem } from "@/lib/i18n/problem";
import { isJobId } from "@/lib/jobs/ids";
import { requestBulkChange, requestUndo } from "@/lib/subscribers/bulk";
import { bulkRequestSchema } from "@/lib/subscribers/bulk-schema";

// Anyone signed in changes the status or the mandatory flag of many subscribers; deleting them is
// for administrators (requestBulkChange checks it, whoever calls). The API's POST takes the same path.
export const bulkChangeAction = action(requireUser, bulkRequestSchema, async ({ target, change }, user) => {
  const result = await requestBulkChange(user.scope, user, target, change);
  if (result.kind === "done") revalidatePath("/subscribers");
  return {
    ok: true,
    data: result,
    message:
      result.kind === "done"
        ? problem("bulk.changed", { count: result.count, kind: "delete" in change ? "delete" : "change" })
        : problem("bulk.queued", { count: result.total }),
  };
});

const undoSchema = z.object({ id: z.string().refine(isJobId, problem("bulk.notABulkChange")) });

/** The bulk change page's Undo: its author or an admin (a deletion's: admins), checked by requestUndo. */
export const undoBulkAction = action(requireUser, undoSchema, async ({ id }, user) => {
  const result = await requestUndo(user.scope, user, id);
  revalidatePath("/subscribers");
  revalidatePath(`/subscribers/bulk/${id}`);
  return {
    ok: true,
    data: result,
    message: result.kind === "done" ? problem("bulk.undone") : problem("bulk.undoQueued", { count: result.total }),
  };
});
