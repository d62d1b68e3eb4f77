import type { Metadata } from "next";
import { Suspense } from "react";
import Link from "next/link";
import { EmptyState, InvalidQuery, ListProblemNotice, PastLastPage, ResultSummary } from "@/components/list/list-states";
import { ListToolbar } from "@/components/list/list-toolbar";
import { Pager } from "@/components/list/pager";
import { TableSkeleton } from "@/components/list/table-skeleton";
import { requirePageAdmin } from "@/lib/auth/page-guards";
import { config } from "@/lib/config";
import { formatDateTime } from "@/lib/format";
import { listOutcome } from "@/lib/list/outcome";
import { parseWith, withParams, type RawParams } from "@/lib/list/params";
import { TRASH_FILTER_KEYS, TRASH_KINDS, trashPageSchema, type TrashFilters, type TrashKind } from "@/lib/trash/filters";
import { listTrashedBranches, listTrashedSubscribers } from "@/lib/trash/queries";
import { TRASH_TOOLBAR } from "./filter-fields";
import { TrashTable, type TrashRow } from "./trash-table";

export const metadata: Metadata = { title: "Trash" };

const PATH = "/trash";

/** Deleted subscribers and branches, kept TRASH_RETENTION_DAYS for a restore (administrators). */
export default async function TrashPage({ searchParams }: { searchParams: Promise<RawParams> }) {
  const params = await searchParams;
  await requirePageAdmin(`${PATH}${withParams(params, {})}`);
  const parsed = parseWith(trashPageSchema, params);
  const kind: TrashKind = parsed.ok ? parsed.value.kind : "subscribers";
  return (
    <div className="space-y-5">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Trash</h1>
        <p className="text-sm text-slate-600">
          Deleted subscribers and branches stay here for {config().TRASH_RETENTION_DAYS} days, then the clean-up erases them for good.
        </p>
      </div>
      <nav aria-label="Kind of record" className="flex gap-1 border-b border-slate-200 text-sm">
        {TRASH_KINDS.map((k) => (
          <Link
            key={k}
            href={`${PATH}${withParams({ ...params, kind: k }, { page: undefined })}`}
            aria-current={k === kind ? "page" : undefined}
            className={`-mb-px border-b-2 px-3 py-2 font-medium ${k === kind ? "border-brand-600 text-brand-700" : "border-transparent text-slate-600 hover:text-slate-900"}`}
          >
            {k === "subscribers" ? "Subscribers" : "Branches"}
          </Link>
        ))}
      </nav>
      <ListToolbar filters={TRASH_TOOLBAR} params={params} path={PATH} />
      {parsed.ok ? (
        <Suspense key={kind} fallback={<TableSkeleton />}>
          <Results kind={kind} filters={parsed.value} params={params} />
        </Suspense>
      ) : (
        <InvalidQuery fields={parsed.fields} params={params} path={PATH} />
      )}
    </div>
  );
}

async function Results({ kind, filters, params }: { kind: TrashKind; filters: TrashFilters; params: RawParams }) {
  const outcome = await listOutcome(async () => {
    if (kind === "branches") {
      const { data, pagination } = await listTrashedBranches(filters);
      const rows: TrashRow[] = data.map((b) => ({
        id: b.id,
        name: b.name,
        detail: null,
        deleted_at: b.deleted_at.toISOString(),
        deleted_at_text: formatDateTime(b.deleted_at),
        deleted_by: b.deleted_by?.name ?? null,
        merged_into: null,
      }));
      return { rows, pagination };
    }
    const { data, pagination } = await listTrashedSubscribers(filters);
    const rows: TrashRow[] = data.map((s) => ({
      id: s.id,
      name: `${s.first_name} ${s.last_name}`,
      detail: s.email,
      deleted_at: s.deleted_at.toISOString(),
      deleted_at_text: formatDateTime(s.deleted_at),
      deleted_by: s.deleted_by?.name ?? null,
      merged_into: s.merged_into,
    }));
    return { rows, pagination };
  });
  if (!outcome.ok) return <ListProblemNotice problem={outcome.problem} params={params} path={PATH} />;
  const { rows, pagination } = outcome.value;
  const noun: [string, string] = kind === "branches" ? ["branch", "branches"] : ["subscriber", "subscribers"];
  if (pagination.total === 0) {
    const filtered = TRASH_FILTER_KEYS.some((key) => params[key]);
    return filtered ? (
      <EmptyState title={`No trashed ${noun[1]} match these filters`}>Change or clear the filters to see more.</EmptyState>
    ) : (
      <EmptyState title={`No ${noun[1]} in the trash`}>Deleted {noun[1]} appear here, ready to be restored.</EmptyState>
    );
  }
  if (rows.length === 0) return <PastLastPage pagination={pagination} params={params} path={PATH} />;
  return (
    <div className="space-y-4">
      <ResultSummary pagination={pagination} rows={rows.length} noun={noun} />
      <TrashTable kind={kind} rows={rows} />
      <Pager pagination={pagination} params={params} path={PATH} />
    </div>
  );
}
