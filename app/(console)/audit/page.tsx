import type { Metadata } from "next";
import { Suspense } from "react";
import { EmptyState, InvalidQuery, ListProblemNotice, PastLastPage, ResultSummary } from "@/components/list/list-states";
import { ListToolbar } from "@/components/list/list-toolbar";
import { Pager } from "@/components/list/pager";
import { TableSkeleton } from "@/components/list/table-skeleton";
import { auditFiltersSchema, type AuditFilters } from "@/lib/audit/filters";
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
      {parsed.ok ? (
        <Suspense fallback={<TableSkeleton />}>
          <Results filters={parsed.value} params={params} userId={user.id} />
        </Suspense>
      ) : <InvalidQuery fields={parsed.fields} params={params} path={PATH} />}
    </div>
  );
}

async function Results({ filters, params, userId }: { filters: AuditFilters; params: RawParams; userId: number }) {
  const outcome = await listOutcome(() => heavy(userId, () => listAuditEvents(filters)));
  if (!outcome.ok) return <ListProblemNotice problem={outcome.problem} params={params} path={PATH} />;
  const { data, pagination } = outcome.value;
  if (pagination.total === 0) {
    return <EmptyState title="No events match these filters">Change or clear the filters.</EmptyState>;
  }
  if (data.length === 0) return <PastLastPage pagination={pagination} params={params} path={PATH} />;
  return (
    <div className="space-y-4">
      <ResultSummary pagination={pagination} rows={data.length} noun={["event", "events"]} />
      <AuditTable rows={data} sort={filters.sort} params={params} path={PATH} />
      <Pager pagination={pagination} params={params} path={PATH} />
    </div>
  );
}
