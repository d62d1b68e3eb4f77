import type { Metadata } from "next";
import { Suspense } from "react";
import Link from "next/link";
import { EmptyState, InvalidQuery, ListProblemNotice, PastLastPage, ResultSummary } from "@/components/list/list-states";
import { ListToolbar } from "@/components/list/list-toolbar";
import { Pager } from "@/components/list/pager";
import { TableSkeleton } from "@/components/list/table-skeleton";
import { buttonClass } from "@/components/ui/button-styles";
import { requirePageAdmin } from "@/lib/auth/page-guards";
import type { Caller } from "@/lib/auth/principal";
import { listOutcome } from "@/lib/list/outcome";
import { parseWith, withParams, type RawParams } from "@/lib/list/params";
import { userFiltersSchema, type UserFilters } from "@/lib/users/filters";
import { listUsers } from "@/lib/users/queries";
import { branchOptions } from "@/lib/subscribers/options";
import { UserTable } from "./user-table";
import { USER_TOOLBAR } from "./filter-fields";

export const metadata: Metadata = { title: "Users" };

const PATH = "/users";

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
      <ListToolbar filters={USER_TOOLBAR} params={params} path={PATH} />
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

async function Results({ filters, params, me }: { filters: UserFilters; params: RawParams; me: Caller }) {
  // The admin's own scope (every branch): the choices of the "Branches…" dialog and the names in the table.
  const [outcome, branches] = await Promise.all([listOutcome(() => listUsers(filters)), branchOptions(me.scope)]);
  if (!outcome.ok) return <ListProblemNotice problem={outcome.problem} params={params} path={PATH} />;
  const { data, pagination } = outcome.value;
  if (pagination.total === 0) {
    return <EmptyState title="No users match these filters">Change or clear the filters to see more users.</EmptyState>;
  }
  if (data.length === 0) return <PastLastPage pagination={pagination} params={params} path={PATH} />;
  return (
    <div className="space-y-4">
      <ResultSummary pagination={pagination} rows={data.length} noun={["user", "users"]} />
      <UserTable rows={data} sort={filters.sort} params={params} path={PATH} me={me} branches={branches} />
      <Pager pagination={pagination} params={params} path={PATH} />
    </div>
  );
}
