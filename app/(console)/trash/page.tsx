import type { Metadata } from "next";
import Link from "next/link";
import { ListBody, ListResults } from "@/components/list/list-results";
import { EmptyState } from "@/components/list/list-states";
import { ListToolbar } from "@/components/list/list-toolbar";
import { requirePageAdmin } from "@/lib/auth/page-guards";
import { config } from "@/lib/config";
import { formatDateTime } from "@/lib/format";
import { listOutcome } from "@/lib/list/outcome";
import type { Pagination } from "@/lib/list/pagination";
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
      <ListBody parsed={parsed} params={params} path={PATH} streamKey={kind}>
        {(filters) => (
          <ListResults list={listOutcome(() => trashRows(kind, filters))} params={params} path={PATH} noun={NOUNS[kind]} empty={<NoTrash kind={kind} params={params} />}>
            {(rows) => <TrashTable kind={kind} rows={rows} />}
          </ListResults>
        )}
      </ListBody>
    </div>
  );
}

const NOUNS: Record<TrashKind, [string, string]> = { branches: ["branch", "branches"], subscribers: ["subscriber", "subscribers"] };

async function trashRows(kind: TrashKind, filters: TrashFilters): Promise<{ data: TrashRow[]; pagination: Pagination }> {
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
    return { data: rows, pagination };
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
  return { data: rows, pagination };
}

function NoTrash({ kind, params }: { kind: TrashKind; params: RawParams }) {
  const noun = NOUNS[kind][1];
  return TRASH_FILTER_KEYS.some((key) => params[key]) ? (
    <EmptyState title={`No trashed ${noun} match these filters`}>Change or clear the filters to see more.</EmptyState>
  ) : (
    <EmptyState title={`No ${noun} in the trash`}>Deleted {noun} appear here, ready to be restored.</EmptyState>
  );
}
