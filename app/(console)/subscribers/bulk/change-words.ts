import "server-only";
import { getTranslations } from "next-intl/server";
import type { BulkChange } from "@/lib/subscribers/bulk-schema";

/** A bulk change in the reader's words ("set the status to expired"), as its confirmation and its page say it. */
export async function changeWords(): Promise<(change: BulkChange) => string> {
  const t = await getTranslations("bulk.change");
  return (change) =>
    "delete" in change
      ? t("delete")
      : "subscription_status" in change
        ? t("status", { status: change.subscription_status })
        : t("mandatory", { value: change.is_mandatory ? "yes" : "no" });
}
