import type { Metadata } from "next";
import { Suspense } from "react";
import Link from "next/link";
import { FilterBar, type FilterField } from "@/components/list/filter-bar";
import { EmptyState, InvalidQuery, ListProblemNotice, PastLastPage, ResultSummary } from "@/components/list/list-states";
import { Pager } from "@/components/list/pager";
import { TableSkeleton } from "@/components/list/table-skeleton";
import { buttonClass } from "@/components/ui/button-styles";
import { requirePageAdmin } from "@/lib/auth/page-guards";
import type { SessionUser } from "@/lib/auth/permissions";
import { listOutcome } from "@/lib/list/outcome";
import { parseWith, withParams, type RawParams } from "@/lib/list/params";
import { USER_FILTER_KEYS, userFiltersSchema, type UserFilters } from "@/lib/users/filters";
import { listUsers } from "@/lib/users/queries";
import { UserTable } from "./user-table";

export const metadata: Metadata = { title: "Users" };

const PATH = "/users";
const FIELDS: FilterField[] = [
  { kind: "text", name: "name", label: "Name", placeholder: "Contains…" },
  { kind: "text", name: "email", label: "Email", placeholder: "Contains…" },
  {
    kind: "select",
    name: "role",
    label: "Role",
    options: [
      { value: "admin", label: "Administrator" },
      { value: "staff", label: "Staff" },
    ],
  },
  {
    kind: "select",
    name: "active",
    label: "Active",
    options: [
      { value: "true", label: "Active" },
      { value: "false", label: "Deactivated" },
    ],
  },
];

export default async function UsersPage({ searchParams }: { searchParams: Promise<RawParams> }) {
  const params = await searchParams;
  const admin = await requirePageAdmin(`${PATH}${withParams(params, {})}`);
  const parsed = parseWith(userFiltersSchema, params);
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">Users</h1>
        <Link href="/users/new" className={buttonClass.primary}>
          New user
        </Link>
      </div>
      <FilterBar fields={FIELDS} resetKeys={USER_FILTER_KEYS} />
      {parsed.ok ? (
        <Suspense fallback={<TableSkeleton />}>
          <Results filters={parsed.value} params={params} me={admin} />
        </Suspense>
      ) : (
        <InvalidQuery fields={parsed.fields} params={params} path={PATH} />
      )}
    </div>
  );
}

async function Results({ filters, params, me }: { filters: UserFilters; params: RawParams; me: SessionUser }) {
  const outcome = await listOutcome(() => listUsers(filters));
  if (!outcome.ok) return <ListProblemNotice problem={outcome.problem} params={params} path={PATH} />;
  const { data, pagination } = outcome.value;
  if (pagination.total === 0) {
    return <EmptyState title="No users match these filters">Change or clear the filters to see more users.</EmptyState>;
  }
  if (data.length === 0) return <PastLastPage pagination={pagination} params={params} path={PATH} />;
  return (
    <div className="space-y-4">
      <ResultSummary pagination={pagination} rows={data.length} noun={["user", "users"]} />
      <UserTable rows={data} sort={filters.sort} params={params} path={PATH} me={me} />
      <Pager pagination={pagination} params={params} path={PATH} />
    </div>
  );
}
