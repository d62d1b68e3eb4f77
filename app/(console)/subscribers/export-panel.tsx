import { ExportPanelView } from "@/components/export/export-panel-view";
import { requireUser } from "@/lib/auth/guards";
import { config } from "@/lib/config";
import { prisma } from "@/lib/db/client";
import { parseExportFilters } from "@/lib/export/filters";
import { countQuery } from "@/lib/export/rows";
import { exportStatus } from "@/lib/export/status";
import type { RawParams } from "@/lib/list/params";
import { requestExportAction } from "./export-actions";

/**
 * The export panel of /subscribers: how many rows the current filters export, the state of the
 * user's export (polled while in_queue) and the download of the newest file.
 */
export async function ExportPanel({ params }: { params: RawParams }) {
  const user = await requireUser();
  const parsed = parseExportFilters(params);
  const [status, matching] = await Promise.all([
    exportStatus(user.id),
    parsed.ok ? countMatching(parsed.value.values) : Promise.resolve(null),
  ]);
  return (
    <ExportPanelView
      initial={status}
      filters={parsed.ok ? parsed.value.raw : {}}
      matching={matching}
      request={requestExportAction}
      timeZone={config.timeZone}
    />
  );
}

async function countMatching(values: Parameters<typeof countQuery>[0]): Promise<number> {
  const [row] = await (await prisma()).$queryRaw<{ total: number }[]>(countQuery(values));
  return row?.total ?? 0;
}
