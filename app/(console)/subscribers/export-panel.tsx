import { ExportPanelView } from "@/components/export/export-panel-view";
import type { SessionUser } from "@/lib/auth/permissions";
import { config } from "@/lib/config";
import type { RawExportFilters } from "@/lib/export/filters";
import { exportStatus } from "@/lib/export/status";
import { requestExportAction } from "./export-actions";

/**
 * The export panel of /subscribers: how many rows the current filters export, the state of the
 * user's export (polled while in_queue) and the download of the newest file. The page hands it
 * what it already has: its signed-in user, the filters it parsed (null when they are not valid)
 * and its list's total ("unknown" when the list could not be read), so nothing is guarded,
 * parsed or counted twice.
 */
export async function ExportPanel({
  user,
  filters,
  matching,
}: {
  user: SessionUser;
  filters: RawExportFilters | null;
  matching: Promise<number | "unknown"> | null;
}) {
  const [status, total] = await Promise.all([exportStatus(user.id), matching]);
  return (
    <ExportPanelView
      initial={status}
      filters={filters ?? {}}
      matching={filters ? total : null}
      request={requestExportAction}
      timeZone={config().CONSOLE_TIME_ZONE}
    />
  );
}
