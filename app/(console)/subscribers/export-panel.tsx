import { ClientMessages } from "@/components/client-messages";
import { getTranslations } from "next-intl/server";
import { ExportPanelView } from "@/components/export/export-panel-view";
import type { SessionUser } from "@/lib/auth/permissions";
import type { RawExportFilters } from "@/lib/export/filters";
import { exportStatus } from "@/lib/export/status";
import { requestExportAction } from "./export-actions";
import { subscriberToolbar } from "./filter-fields";

/** The page hands it its user, parsed filters and total, so nothing is guarded, parsed or counted twice. */
export async function ExportPanel({
  user,
  filters,
  sort,
  view,
  matching,
}: {
  user: SessionUser;
  filters: RawExportFilters | null;
  sort: string;
  /** The saved view the address is, named so people see whose filters they export. */
  view: string | null;
  matching: Promise<number | "unknown"> | null;
}) {
  const [status, total, all] = await Promise.all([exportStatus(user.id), matching, getTranslations()]);
  // Client code (it polls): it reads `export`, and `list` for the filters' words.
  return (
    <ClientMessages namespaces={["export", "list", "fields"]}>
      <ExportPanelView
        initial={status}
        filters={filters ?? {}}
        sort={sort}
        view={view}
        matching={filters ? total : null}
        request={requestExportAction}
        toolbar={subscriberToolbar(all)}
      />
    </ClientMessages>
  );
}
