import type { Metadata } from "next";
import { ClientMessages } from "@/components/client-messages";
import Link from "next/link";
import { redirect } from "next/navigation";
import { ListBody, ListResults } from "@/components/list/list-results";
import { EmptyState } from "@/components/list/list-states";
import { ListToolbar } from "@/components/list/list-toolbar";
import { buttonClass } from "@/components/ui/button-styles";
import { requirePageUser } from "@/lib/auth/page-guards";
import { canManageBranches } from "@/lib/auth/permissions";
import { BRANCH_FILTER_KEYS, branchFiltersSchema } from "@/lib/branches/filters";
import { listBranches } from "@/lib/branches/queries";
import { listOutcome } from "@/lib/list/outcome";
import { parseWith, withParams, type RawParams } from "@/lib/list/params";
import { defaultViewHref, viewsState } from "@/lib/views/menu";
import { ViewsMenu } from "../views/views-menu";
import { BranchTable } from "./branch-table";
import { BRANCH_TOOLBAR } from "./filter-fields";

export const metadata: Metadata = { title: "Branches" };

const PATH = "/branches";

export default async function BranchesPage({ searchParams }: { searchParams: Promise<RawParams> }) {
  const params = await searchParams;
  const user = await requirePageUser(`${PATH}${withParams(params, {})}`);
  const admin = canManageBranches(user);
  const defaultView = await defaultViewHref(user, "branches", params);
  if (defaultView) redirect(defaultView);
  const parsed = parseWith(branchFiltersSchema, params);
  // The list's read beside the menu's, not after it: one round trip to the database fewer.
  const list = parsed.ok ? listOutcome(() => listBranches(user.scope, parsed.value)) : null;
  const views = await viewsState(user, "branches", params);

  // The list's client parts read `list` (the toolbar and views menu bring their own).
  return (
    <ClientMessages namespaces={["list"]}>
    <div className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">Branches</h1>
        {admin ? (
          <Link href="/branches/new" className={buttonClass.primary}>
            New branch
          </Link>
        ) : null}
      </div>
      <ListToolbar
        filters={BRANCH_TOOLBAR}
        params={params}
        path={PATH}
        views={<ViewsMenu state={views} params={params} />}
        emptyQuery={views.hasDefault ? "view=all" : undefined}
      />
      <ListBody parsed={parsed} params={params} path={PATH}>
        {(filters) => (
          <ListResults
            list={list!}
            params={params}
            path={PATH}
            noun={["branch", "branches"]}
            empty={<NoBranches filtered={BRANCH_FILTER_KEYS.some((key) => params[key])} admin={admin} />}
          >
            {(rows) => <BranchTable rows={rows} sort={filters.sort} params={params} path={PATH} admin={admin} />}
          </ListResults>
        )}
      </ListBody>
    </div>
    </ClientMessages>
  );
}

function NoBranches({ filtered, admin }: { filtered: boolean; admin: boolean }) {
  return filtered ? (
    <EmptyState title="No branches match these filters">Change or clear the filters to see more branches.</EmptyState>
  ) : (
    <EmptyState
      title="No branches yet"
      action={admin ? <Link href="/branches/new" className={buttonClass.primary}>New branch</Link> : null}
    >
      {admin ? "Create the first branch to assign subscribers to it." : "An administrator can create branches."}
    </EmptyState>
  );
}
