import { ClientMessages } from "@/components/client-messages";
import { LIST_CLIENT_WORDS } from "@/lib/i18n/client-words";
import type { ListFilters } from "@/components/list/filter-bar";
import { ExportPanelView } from "@/components/export/export-panel-view";
import type { SessionUser } from "@/lib/auth/permissions";
import type { RawExportFilters } from "@/lib/export/filters";
import { exportStatus, exportStatusInWords } from "@/lib/export/status";
import { getProblemWords } from "@/lib/i18n/server";
import { requestExportAction } from "./export-actions";

/** The page hands it its user, toolbar, parsed filters and total, so nothing is guarded, built, parsed or counted twice. */
export async function ExportPanel({
  user,
  toolbar,
  filters,
  sort,
  view,
  matching,
}: {
  user: SessionUser;
  /** The list's filters in the reader's words: the file's are named as the toolbar names them. */
  toolbar: ListFilters;
  filters: RawExportFilters | null;
  sort: string;
  /** The saved view the address is, named so people see whose filters they export. */
  view: string | null;
  matching: Promise<number | "unknown"> | null;
}) {
  const [status, total, words] = await Promise.all([exportStatus(user.id), matching, getProblemWords()]);
  // Client code (it polls): it reads `export`, and `list` for the filters' words. A failure's
  // error is put into words here, and the API's polled answers in the page's language, so the
  // `problems.export` group need not travel.
  return (
    <ClientMessages namespaces={["export", ...LIST_CLIENT_WORDS, "fields"]}>
      <ExportPanelView
        initial={exportStatusInWords(status, words)}
        filters={filters ?? {}}
        sort={sort}
        view={view}
        matching={filters ? total : null}
        request={requestExportAction}
        toolbar={toolbar}
      />
    </ClientMessages>
  );
}
