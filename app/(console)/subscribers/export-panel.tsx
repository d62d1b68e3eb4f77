import { ExportPanelView } from "@/components/export/export-panel-view";
import { requireUser } from "@/lib/auth/guards";
import { config } from "@/lib/config";
import { heavy } from "@/lib/load/user-limit";
import { parseExportFilters } from "@/lib/export/filters";
import { exportStatus } from "@/lib/export/status";
import type { RawParams } from "@/lib/list/params";
import type { SubscriberFilterValues } from "@/lib/subscribers/filters";
import { countOnce, subscriberListSql } from "@/lib/subscribers/queries";
import { requestExportAction } from "./export-actions";

/**
 * The export panel of /subscribers: how many rows the current filters export, the state of the
 * user's export (polled while in_queue) and the download of the newest file. `matching` is the
 * list's own total when the page reads the list ("unknown" when the list could not be read).
 */
export async function ExportPanel({ params, matching: listed }: { params: RawParams; matching?: Promise<number | "unknown"> }) {
  const user = await requireUser();
  const parsed = parseExportFilters(params);
  const [status, matching] = await Promise.all([
    exportStatus(user.id),
    !parsed.ok ? Promise.resolve(null) : (listed ?? heavy(user.id, () => countMatching(parsed.value.values))),
  ]);
  return (
    <ExportPanelView
      initial={status}
      filters={parsed.ok ? parsed.value.raw : {}}
      matching={matching}
      request={requestExportAction}
      timeZone={config().CONSOLE_TIME_ZONE}
    />
  );
}

/** The list's own count statement (with its fast paths), shared with the list on the same page. */
function countMatching(values: SubscriberFilterValues): Promise<number> {
  return countOnce(subscriberListSql({ ...values, page: 1, sort: { column: "id", direction: "asc" } }).count);
}
