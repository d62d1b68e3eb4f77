import type { Metadata } from "next";
import { ListBody, ListResults } from "@/components/list/list-results";
import { EmptyState } from "@/components/list/list-states";
import { ListToolbar } from "@/components/list/list-toolbar";
import { auditFiltersSchema } from "@/lib/audit/filters";
import { listAuditEvents } from "@/lib/audit/queries";
import { requirePageAdmin } from "@/lib/auth/page-guards";
import { config } from "@/lib/config";
import { listOutcome } from "@/lib/list/outcome";
import { parseWith, withParams, type RawParams } from "@/lib/list/params";
import { heavy } from "@/lib/load/user-limit";
import { AuditTable } from "./audit-table";
import { AUDIT_TOOLBAR } from "./filter-fields";

export const metadata: Metadata = { title: "Audit log" };

const PATH = "/audit";

export default async function AuditPage({ searchParams }: { searchParams: Promise<RawParams> }) {
  const params = await searchParams;
  const user = await requirePageAdmin(`${PATH}${withParams(params, {})}`);
  const parsed = parseWith(auditFiltersSchema, params);
  return (
    <div className="space-y-5">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Audit log</h1>
        <p className="mt-1 text-sm text-slate-600">{`Sign-ins, changes, exports and refusals, newest first. Times in ${config().CONSOLE_TIME_ZONE}.`}</p>
      </div>
      <ListToolbar filters={AUDIT_TOOLBAR} params={params} path={PATH} />
      <ListBody parsed={parsed} params={params} path={PATH}>
        {(filters) => (
          <ListResults
            list={listOutcome(() => heavy(user.id, () => listAuditEvents(filters)))}
            params={params}
            path={PATH}
            noun={["event", "events"]}
            empty={<EmptyState title="No events match these filters">Change or clear the filters.</EmptyState>}
          >
            {(rows) => <AuditTable rows={rows} sort={filters.sort} params={params} path={PATH} />}
          </ListResults>
        )}
      </ListBody>
    </div>
  );
}

