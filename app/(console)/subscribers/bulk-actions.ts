"use server";

import { revalidatePath } from "next/cache";
import { action } from "@/lib/actions";
import { requireUser } from "@/lib/auth/guards";
import { branchScope } from "@/lib/auth/scope";
import { requestBulkChange } from "@/lib/subscribers/bulk";
import { bulkRequestSchema } from "@/lib/subscribers/bulk-schema";

// Anyone signed in changes the status or the mandatory flag of many subscribers; deleting them is
// for administrators (requestBulkChange checks it, whoever calls).
export const bulkChangeAction = action(requireUser, bulkRequestSchema, async ({ target, change }, user) => {
  const result = await requestBulkChange(branchScope(user), user, target, change);
  if (result.kind === "done") revalidatePath("/subscribers");
  return {
    ok: true,
    data: result,
    message:
      result.kind === "done"
        ? `${result.count.toLocaleString("en-GB")} subscriber${result.count === 1 ? "" : "s"} ${"delete" in change ? "deleted" : "changed"}.`
        : `Changing ${result.total.toLocaleString("en-GB")} subscribers in the background.`,
  };
});
