import type { Metadata } from "next";
import { Suspense } from "react";
import Link from "next/link";
import { FilterBar, type FilterField } from "@/components/list/filter-bar";
import { EmptyState, InvalidQuery, ListProblemNotice, PastLastPage, ResultSummary } from "@/components/list/list-states";
import { Pager } from "@/components/list/pager";
import { TableSkeleton } from "@/components/list/table-skeleton";
import { buttonClass } from "@/components/ui/button-styles";
import { requirePageUser } from "@/lib/auth/page-guards";
import { canCreateSubscribers } from "@/lib/auth/permissions";
import { rawExportFilters } from "@/lib/export/filters";
import { listOutcome, type ListOutcome } from "@/lib/list/outcome";
import { parseWith, withParams, type RawParams } from "@/lib/list/params";
import { heavyUnless } from "@/lib/load/user-limit";
import { SUBSCRIBER_FILTER_KEYS, subscriberFiltersSchema, type SubscriberFilters } from "@/lib/subscribers/filters";
import { STATUS_OPTIONS, YES_NO_OPTIONS } from "@/lib/subscribers/labels";
import { isLightList, listSubscribers } from "@/lib/subscribers/queries";
import { ExportPanel } from "./export-panel";
import { SubscriberTable } from "./subscriber-table";

export const metadata: Metadata = { title: "Subscribers" };

const PATH = "/subscribers";

/** A filter for every column, with docs/API.md's parameter names. */
const FIELDS: FilterField[] = [
  { kind: "text", name: "first_name", label: "First name", placeholder: "Contains…" },
  { kind: "text", name: "last_name", label: "Last name", placeholder: "Contains…" },
  { kind: "text", name: "email", label: "Email", placeholder: "Contains…" },
  { kind: "text", name: "mobile", label: "Mobile", placeholder: "Digits, e.g. 7400" },
  { kind: "text", name: "branch_name", label: "Branch", placeholder: "Contains…" },
  { kind: "text", name: "country_name", label: "Country", placeholder: "Contains…" },
  { kind: "text", name: "sheet", label: "Sheet", placeholder: "Contains…" },
  { kind: "select", name: "subscription_status", label: "Status", options: STATUS_OPTIONS },
  { kind: "select", name: "is_duplicate", label: "Duplicate", options: YES_NO_OPTIONS },
  { kind: "select", name: "is_mandatory", label: "Mandatory", options: YES_NO_OPTIONS },
  { kind: "dateRange", label: "Travel date", from: "travel_date_from", to: "travel_date_to" },
  { kind: "text", name: "id", label: "ID", numeric: true, placeholder: "Exact id" },
  { kind: "dateRange", label: "Created", from: "created_from", to: "created_to" },
];

export default async function SubscribersPage({ searchParams }: { searchParams: Promise<RawParams> }) {
  const params = await searchParams;
  const user = await requirePageUser(`${PATH}${withParams(params, {})}`);
  const parsed = parseWith(subscriberFiltersSchema, params);
  // The list's query, within the user's limit of heavy requests (lib/load/user-limit.ts); the
  // export panel takes its count of matches from it rather than counting again.
  const list = parsed.ok ? listOutcome(() => heavyUnless(isLightList(parsed.value), user.id, () => listSubscribers(parsed.value))) : null;

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">Subscribers</h1>
        {canCreateSubscribers(user) ? (
          <Link href="/subscribers/new" className={buttonClass.primary}>
            New subscriber
          </Link>
        ) : null}
      </div>
      <FilterBar fields={FIELDS} resetKeys={SUBSCRIBER_FILTER_KEYS} />
      <ExportPanel
        user={user}
        filters={parsed.ok ? rawExportFilters(params) : null}
        matching={list?.then((l) => (l.ok ? l.value.pagination.total : (l.problem.total ?? "unknown"))) ?? null}
      />
      {parsed.ok ? (
        <Suspense fallback={<TableSkeleton />}>
          <Results list={list!} filters={parsed.value} params={params} />
        </Suspense>
      ) : <InvalidQuery fields={parsed.fields} params={params} path={PATH} />}
    </div>
  );
}

type List = Awaited<ReturnType<typeof listSubscribers>>;

async function Results({ list, filters, params }: { list: Promise<ListOutcome<List>>; filters: SubscriberFilters; params: RawParams }) {
  const outcome = await list;
  if (!outcome.ok) return <ListProblemNotice problem={outcome.problem} params={params} path={PATH} />;
  const { data, pagination } = outcome.value;
  const filtered = SUBSCRIBER_FILTER_KEYS.some((key) => params[key]);

  if (pagination.total === 0) {
    return filtered ? (
      <EmptyState title="No subscribers match these filters">Change or clear the filters to see more subscribers.</EmptyState>
    ) : (
      <EmptyState title="No subscribers yet" action={<Link href="/subscribers/new" className={buttonClass.primary}>New subscriber</Link>}>
        Subscribers you create appear here, newest first.
      </EmptyState>
    );
  }
  if (data.length === 0) return <PastLastPage pagination={pagination} params={params} path={PATH} />;

  return (
    <div className="space-y-4">
      <ResultSummary pagination={pagination} rows={data.length} noun={["subscriber", "subscribers"]} />
      <SubscriberTable rows={data} sort={filters.sort} params={params} path={PATH} />
      <Pager pagination={pagination} params={params} path={PATH} />
    </div>
  );
}
